/**
 * Who is signed in and their tokens, kept in memory only: a reload, a sign-out or closing the tab
 * forgets them (never localStorage, never a cookie the API did not set). Access tokens are short
 * (15 minutes); the console refreshes one a minute before it expires with the rotating refresh
 * token the sign-in answered, once even when several calls need it at the same moment.
 */
import createClient from 'openapi-fetch';
import { SessionEnded, type paths, type Schemas } from './api';

export type Kind = 'client' | 'staff';

export interface Tokens { accessToken: string; expiresAt: string; refreshToken: string }

export interface Session {
  kind: Kind;
  id: string;
  /** How the console names who is signed in. */
  name: string;
  /** A staff member's type and position: what the permission table is read against. */
  staff?: Pick<Schemas['StaffProfile'], 'type' | 'position'>;
}

const EARLY_MS = 60_000;

export class TokenKeeper {
  private tokens?: Tokens;
  private kind?: Kind;
  private refreshing?: Promise<string>;

  constructor(private readonly baseUrl: string, private readonly apiKey: string) {}

  keep(kind: Kind, tokens: Tokens): void {
    this.kind = kind;
    this.tokens = { accessToken: tokens.accessToken, expiresAt: tokens.expiresAt, refreshToken: tokens.refreshToken };
    this.refreshing = undefined;
  }

  forget(): void {
    this.tokens = undefined;
    this.kind = undefined;
    this.refreshing = undefined;
  }

  /** The access token to send now, refreshed first when it is about to expire. */
  async current(): Promise<string | undefined> {
    const tokens = this.tokens;
    if (!tokens) return undefined;
    if (Date.parse(tokens.expiresAt) - Date.now() > EARLY_MS) return tokens.accessToken;
    this.refreshing ??= this.refresh(tokens).finally(() => { this.refreshing = undefined; });
    return this.refreshing;
  }

  private async refresh(tokens: Tokens): Promise<string> {
    const api = createClient<paths>({ baseUrl: this.baseUrl, headers: { 'Api-Key': this.apiKey } });
    const body = { refreshToken: tokens.refreshToken };
    const answer = this.kind === 'staff'
      ? await api.POST('/staff/auth/token/refresh', { body })
      : await api.POST('/auth/token/refresh', { body });
    if (!answer.data) {
      this.forget();
      throw new SessionEnded('Your session has ended: sign in again.');
    }
    if (this.tokens === tokens) this.tokens = answer.data.data;
    return answer.data.data.accessToken;
  }
}
