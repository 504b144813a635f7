import { ADMIN, type testApp } from './helper.js';

/**
 * An administrator's calls to a test app (`testApp`): the answer's status and envelope, its rows typed as the call's
 * contract says.
 */
export function adminCalls(ctx: Awaited<ReturnType<typeof testApp>>) {
  return async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
    const response = await ctx.app.inject({
      method,
      url,
      payload: payload as object,
      headers: await ctx.signedIn(ADMIN),
    });
    const body = response.json<{
      data: T[];
      message: string;
      errors?: Record<string, string[]>;
      page?: { total: number };
    }>();
    return { status: response.statusCode, ...body };
  };
}
