// `npm run dev`: the API server (restarts on change) and the Vite dev server (hot reload) together.
import { spawn } from 'node:child_process';

const children = [
  spawn('npm', ['run', 'dev', '-w', '@mbox/server'], { stdio: 'inherit' }),
  spawn('npm', ['run', 'dev', '-w', '@mbox/web'], { stdio: 'inherit' }),
];
const stop = () => children.forEach((child) => child.kill('SIGTERM'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => { stop(); process.exitCode = code ?? 0; });
