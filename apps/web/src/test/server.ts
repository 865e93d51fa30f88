/** The MSW server of the component tests; tests add handlers with `server.use(...)`. */
import { setupServer } from 'msw/node';

export const server = setupServer();
