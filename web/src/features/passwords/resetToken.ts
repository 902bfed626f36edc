function decodeBase64Url(part: string): string {
  const b64 = part.replace(/-/g, '+').replace(/_/g, '/');
  const padded = b64 + '='.repeat((4 - (b64.length % 4)) % 4);
  const bytes = Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

/** The username carried by a reset token (a JWT-like or plain base64 JSON payload), if any. */
export function usernameFromToken(token: string | null): string {
  if (!token) return '';
  const parts = token.split('.');
  const candidates = parts.length >= 2 ? [parts[1], parts[0]] : [token];
  for (const part of candidates) {
    try {
      const payload = JSON.parse(decodeBase64Url(part)) as Record<string, unknown>;
      for (const key of ['username', 'email', 'sub']) {
        const value = payload[key];
        if (typeof value === 'string' && value) return value;
      }
    } catch {
      // Not this part; try the next one.
    }
  }
  return '';
}
