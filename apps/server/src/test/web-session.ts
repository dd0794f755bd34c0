import { CSRF_COOKIE, CSRF_HEADER } from '@mbox/shared';

interface StoredCookie {
  value: string;
  path: string;
  /** The Set-Cookie line as the server sent it, for checks of its attributes. */
  raw: string;
}

interface TrpcAnswer<T> {
  result?: { data: T };
  error?: { message: string; data: { httpStatus: number } };
}

export interface WebResponse<T> {
  status: number;
  body: T;
  setCookies: string[];
}

/**
 * A browser's view of the web app's session for tests: keeps the cookies the server sets (honouring
 * Path and Max-Age=0) and sends them back, echoing the CSRF cookie in its header as the web app does.
 */
export class WebSession {
  readonly cookies = new Map<string, StoredCookie>();

  constructor(private readonly origin: string) {}

  cookie(name: string): StoredCookie | undefined {
    return this.cookies.get(name);
  }

  async request<T = unknown>(
    method: string,
    path: string,
    options: { body?: unknown; csrf?: boolean; headers?: Record<string, string> } = {},
  ): Promise<WebResponse<T>> {
    const pathname = path.split('?')[0] ?? path;
    const sent = [...this.cookies.entries()]
      .filter(([, cookie]) => pathname === cookie.path || pathname.startsWith(cookie.path.endsWith('/') ? cookie.path : `${cookie.path}/`))
      .map(([name, cookie]) => `${name}=${cookie.value}`);
    const headers: Record<string, string> = {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/126.0 Safari/537.36', ...options.headers };
    if (sent.length > 0) headers.cookie = sent.join('; ');
    const csrf = this.cookies.get(CSRF_COOKIE)?.value;
    if (options.csrf !== false && csrf) headers[CSRF_HEADER] = csrf;
    const response = await fetch(`${this.origin}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) this.store(line);
    const text = await response.text();
    return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T, setCookies };
  }

  /** A tRPC mutation as the web app's batch link sends it (POST /trpc/<path>?batch=1). */
  async mutate<T = unknown>(procedure: string, input?: unknown, options: { csrf?: boolean } = {}) {
    const response = await this.request<TrpcAnswer<T>[]>('POST', `/trpc/${procedure}?batch=1`, { body: { 0: input }, ...options });
    return { ...response, body: response.body[0] ?? {} };
  }

  /** A tRPC query as the web app's batch link sends it (GET /trpc/<path>?batch=1&input=…). */
  async query<T = unknown>(procedure: string, input?: unknown) {
    const encoded = encodeURIComponent(JSON.stringify({ 0: input }));
    const response = await this.request<TrpcAnswer<T>[]>('GET', `/trpc/${procedure}?batch=1&input=${encoded}`);
    return { ...response, body: response.body[0] ?? {} };
  }

  private store(line: string): void {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const eq = pair.indexOf('=');
    const name = pair.slice(0, eq);
    const value = pair.slice(eq + 1);
    const attribute = (key: string) =>
      attributes.find((a) => a.toLowerCase().startsWith(`${key.toLowerCase()}=`))?.split('=')[1];
    if (attribute('Max-Age') === '0' || value === '') {
      this.cookies.delete(name);
      return;
    }
    this.cookies.set(name, { value, path: attribute('Path') ?? '/', raw: line });
  }
}
