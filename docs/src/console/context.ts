import { createContext, useContext } from 'react';
import type { Api } from './api';
import type { Session } from './session';
import type { Schemas } from './api';

export type StaffPermission = Schemas['StaffPermission'];

export interface ConsoleState {
  api: Api;
  baseUrl: string;
  session: Session;
  /**
   * Whether the permission table lets the signed-in staff member call `operationId` (always true
   * for a client: its calls are its own). Screens offer an action only when this says yes, unless
   * the reader chose to see refused actions too (`showRefused`), to watch the API refuse them.
   */
  can: (operationId: string) => boolean;
  showRefused: boolean;
}

export const ConsoleContext = createContext<ConsoleState | undefined>(undefined);

export function useConsole(): ConsoleState {
  const state = useContext(ConsoleContext);
  if (!state) throw new Error('useConsole outside the signed-in console');
  return state;
}
