/** The renderer's API client: plain fetch against /v1 with the key in the apiKey header. */
export interface ApiConfig {
  baseUrl: string;
  apiKey: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export async function api<T>(config: ApiConfig, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${config.baseUrl}${path}`, {
    method,
    headers: { apiKey: config.apiKey, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await response.json().catch(() => null);
  if (!response.ok || !json?.requestStatus?.success) {
    const error = json?.requestStatus?.error;
    throw new ApiError(response.status, error?.errorCode ?? 'NETWORK', error?.errorMessage ?? `Request failed (${response.status})`);
  }
  return json as T;
}
