// Types of the docusaurus-theme-openapi-docs modules that src/theme/ imports through the `@theme/`
// alias (the theme declares no such modules itself; its compiled files carry the types).
declare module '@theme/ApiItem/hooks' {
  export * from 'docusaurus-theme-openapi-docs/lib/theme/ApiItem/hooks';
}
declare module '@theme/ApiExplorer/Response/slice' {
  export * from 'docusaurus-theme-openapi-docs/lib/theme/ApiExplorer/Response/slice';
}
