/** Entity ids: UUIDv7 strings (time-ordered, so inserts stay index-friendly). */
import { v7 } from 'uuid';

export const newId = (): string => v7();
