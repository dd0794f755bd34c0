import { jwtVerify, SignJWT } from 'jose';
import type { Secrets } from '../../secrets.js';

/** Its own issuer: an unsubscribe token is never a session, nor a session an unsubscribe token. */
const ISSUER = 'mbox-unsubscribe';

/**
 * The token of a recap's unsubscribe link: signed with the server secret, naming the user. It does not
 * expire: a link in an old e-mail still works (it can only turn recap e-mails off).
 */
export function signUnsubscribeToken(secrets: Secrets, userId: string): Promise<string> {
  return new SignJWT({ purpose: 'unsubscribe' })
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuer(ISSUER)
    .setSubject(userId)
    .setIssuedAt()
    .sign(secrets.authSecret);
}

/** The user id of a valid token, else null. */
export async function verifyUnsubscribeToken(secrets: Secrets, token: string): Promise<string | null> {
  try {
    const { payload } = await jwtVerify(token, secrets.authSecret, { issuer: ISSUER, algorithms: ['HS256'] });
    return payload.purpose === 'unsubscribe' && typeof payload.sub === 'string' ? payload.sub : null;
  } catch {
    return null;
  }
}
