import { ApiError } from '../../api/client';

/** The login failure texts of the spec's error catalogue. */
export function loginFailureMessage(err: unknown): string {
  const reason = err instanceof ApiError ? err.reason : '';
  if (reason === 'rate limited')
    return 'Too many recent failed logins: wait a minute and try again';
  if (reason === 'account locked') {
    return 'Too many recent failed logins: use Forgot My Password to unlock your account';
  }
  return 'Invalid username or password';
}

/** Where to go after signing in: the referer, unless empty or itself a login page. */
export function afterLoginPath(referer: string | null): string {
  if (!referer || referer.includes('login')) return '/items';
  return referer.startsWith('/') ? referer : `/${referer}`;
}
