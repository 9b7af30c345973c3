/**
 * The Send API Request panel's Response box: docusaurus-theme-openapi-docs' own, wrapped
 * (`docusaurus swizzle docusaurus-theme-openapi-docs ApiExplorer/Response --wrap`).
 *
 * When a call gets no HTTP answer at all (the API is not running at the base URL, the address is
 * wrong, the API does not allow this site's origin (CORS), or it times out), the theme stores its
 * explanation as the response with no status code, and its Response box then shows only the
 * "Click the Send API Request button" placeholder: the call fails with nothing to see. This shows
 * that explanation instead, as an alert naming the address that was called and what to check.
 * Any HTTP answer, errors included, is left to the theme's box (status code, body, headers).
 */
import type { ComponentProps, ReactNode } from 'react';
import { translate } from '@docusaurus/Translate';
import { clearCode, clearHeaders, clearResponse } from '@theme/ApiExplorer/Response/slice';
import { useTypedDispatch, useTypedSelector } from '@theme/ApiItem/hooks';
import Response from '@theme-original/ApiExplorer/Response';

/** The server's URL with its variables filled in, as the theme builds the request's address. */
function baseUrlOf(server: { url: string; variables?: Record<string, { default: string }> } | undefined): string | undefined {
  if (!server) return undefined;
  let url = server.url.replace(/\/$/, '');
  for (const [name, variable] of Object.entries(server.variables ?? {})) url = url.replace(`{${name}}`, variable.default);
  return url;
}

export default function ResponseWrapper(props: ComponentProps<typeof Response>): ReactNode {
  const dispatch = useTypedDispatch();
  const value = useTypedSelector((state) => state.response.value);
  const code = useTypedSelector((state) => state.response.code);
  const server = useTypedSelector((state) => state.server.value);
  const fetching = translate({ id: 'theme.openapi.request.fetchingMessage', message: 'Fetching...' });
  const failed = value !== undefined && value !== fetching && (code === undefined || code === null || String(code) === '');
  if (!failed) return <Response {...props} />;

  const baseUrl = baseUrlOf(server);
  return (
    <div className="openapi-explorer__response-container">
      <div className="openapi-explorer__response-title-container">
        <span className="openapi-explorer__response-title">Response</span>
        <button
          type="button"
          className="openapi-explorer__response-clear-btn"
          onClick={() => {
            dispatch(clearResponse());
            dispatch(clearCode());
            dispatch(clearHeaders());
          }}
        >
          Clear
        </button>
      </div>
      <div className="alert alert--danger openapi-explorer__request-error" role="alert">
        <p className="openapi-explorer__request-error-title">
          <strong>The request failed: no answer{baseUrl ? <> from <code>{baseUrl}</code></> : null}.</strong>
        </p>
        <p>{value}</p>
        <p className="margin-bottom--none">
          Check that the API is running at that address (set it in the <strong>Base URL</strong> box above:
          Edit, then <code>baseUrl</code>) and that it allows this site&apos;s origin (<code>CORS_ORIGINS</code>).
        </p>
      </div>
    </div>
  );
}
