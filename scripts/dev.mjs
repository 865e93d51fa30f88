// `npm run dev`: the API with reload (tsx watch, static web off) and the Vite dev server with its proxy.
import { spawn } from 'node:child_process';

const procs = [
  spawn('npm', ['run', 'dev', '-w', '@coffer/server'], { stdio: 'inherit', env: { ...process.env, SERVE_WEB: 'false' } }),
  spawn('npm', ['run', 'dev', '-w', '@coffer/web'], { stdio: 'inherit' }),
];
const stop = () => procs.forEach((p) => p.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
procs.forEach((p) => p.on('exit', (code) => { stop(); process.exitCode = code ?? 0; }));
