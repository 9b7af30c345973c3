/**
 * The API base URL the console calls: the same setting the operation pages' "Send API Request" panel
 * uses. docusaurus.config.ts gives that panel a first server `{baseUrl}` whose variable defaults to
 * customFields.apiBaseUrl (API_BASE_URL at build time, else the contract's first server); when the
 * reader picks a server or edits baseUrl, docusaurus-theme-openapi-docs keeps the chosen server in
 * sessionStorage under "server" (themeConfig.api.authPersistence), as JSON:
 *   {"url":"{baseUrl}","description":"…","variables":{"baseUrl":{"default":"http://…/api/v1",…}}}
 * The console reads it, and writes it back in the same shape when the reader changes it here, so the
 * operation pages call the same API. Browser only (sessionStorage): call it inside <BrowserOnly>.
 */
const KEY = 'server';

interface StoredServer { url: string; description?: string; variables?: Record<string, { default: string; description?: string }> }

/** The server's URL with its variables filled in, as the theme builds a request's address. */
function urlOf(server: StoredServer): string {
  let url = server.url;
  for (const [name, variable] of Object.entries(server.variables ?? {})) url = url.replace(`{${name}}`, variable.default);
  return url.replace(/\/+$/, '');
}

export function readBaseUrl(builtWith: string): string {
  try {
    const stored = window.sessionStorage.getItem(KEY);
    if (stored) {
      const server = JSON.parse(stored) as StoredServer;
      if (typeof server?.url === 'string') return urlOf(server);
    }
  } catch {
    // storage refused (privacy mode) or not the theme's JSON: the built-in default
  }
  return builtWith.replace(/\/+$/, '');
}

export function writeBaseUrl(baseUrl: string, builtWith: string): void {
  const server: StoredServer = {
    url: '{baseUrl}',
    variables: { baseUrl: { default: baseUrl.trim().replace(/\/+$/, '') || builtWith } },
  };
  try {
    const stored = window.sessionStorage.getItem(KEY);
    const previous = stored ? (JSON.parse(stored) as StoredServer) : undefined;
    // Keep the theme's description and variable description when the reader's server is the `{baseUrl}` one.
    if (previous?.url === '{baseUrl}') {
      server.description = previous.description;
      server.variables!.baseUrl.description = previous.variables?.baseUrl?.description;
    }
    window.sessionStorage.setItem(KEY, JSON.stringify(server));
  } catch {
    // storage refused: the setting lasts for this page only
  }
}
