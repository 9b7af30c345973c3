import { listSandboxMessages } from './listSandboxMessages.js';

export const sandboxMessageHandlers = { listSandboxMessages };
