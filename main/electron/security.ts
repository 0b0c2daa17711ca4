/** The renderer may talk to its own loopback API and nothing else; no inline scripts, no remote content. */
export const DEFAULT_CSP = (port: number) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: http://127.0.0.1:${port}`,
    `connect-src 'self' http://127.0.0.1:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
