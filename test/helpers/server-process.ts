import { spawn, type ChildProcess } from 'node:child_process';

/** A server started as `npm start` starts one (server/app/main.ts through tsx), in a process of its own. */
export interface ServerProcess {
  child: ChildProcess;
  output(): string;
  /** Answers once the process has printed `text`, or a line `text` says matches (now or later); fails if it exits first. */
  printed(text: string | ((line: string) => boolean)): Promise<void>;
  /** Answers the exit code once the process has ended. */
  exited(): Promise<number | null>;
}

/** Every server started, for `killServers` (a failed test must not leave one running). */
const started: ChildProcess[] = [];

/** Kills (SIGKILL) every server started that is still running: a suite's afterAll. */
export function killServers() {
  for (const child of started.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Starts the server with `env` over this process's environment; answers once it prints that it is listening. */
export async function startServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/app/main.ts'], { cwd: process.cwd(), env: { ...process.env, ...env } });
  started.push(child);
  let output = '';
  const printed = (text: string | ((line: string) => boolean)) => new Promise<void>((resolve, reject) => {
    const found = () => (typeof text === 'string' ? output.includes(text) : output.split('\n').some(text));
    const check = () => {
      if (!found()) return false;
      child.stdout!.off('data', check); child.stderr!.off('data', check); child.off('exit', exit);
      resolve();
      return true;
    };
    const exit = () => reject(new Error(`the server exited before printing ${typeof text === 'string' ? JSON.stringify(text) : 'the line awaited'}:\n${output}`));
    if (check()) return;
    if (child.exitCode !== null) { exit(); return; }
    child.stdout!.on('data', check); child.stderr!.on('data', check); child.once('exit', exit);
  });
  const exited = () => new Promise<number | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode); else child.once('exit', (code) => resolve(code));
  });
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });
  await printed('listening on');
  return { child, output: () => output, printed, exited };
}
