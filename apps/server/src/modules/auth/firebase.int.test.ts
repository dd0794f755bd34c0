import { generateKeyPair, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  signInWithGoogle,
  signUpWithPassword,
  startAuthEmulator,
  type AuthEmulator,
  type EmulatorSignIn,
} from '../../../../../scripts/firebase-emulator.js';
import { startTestApp, type TestApp } from '../../test/app.js';

// Firebase sign-in against the real Firebase Auth emulator (firebase-tools, installed on demand into
// .tmp/firebase-tools). No skip when it cannot be installed or started: the hook fails with the reason.

const webConfig = (projectId: string) => ({ apiKey: 'demo-key', authDomain: `${projectId}.firebaseapp.com`, projectId });

describe('Firebase sign-in (Auth emulator)', () => {
  let emulator: AuthEmulator;
  let app: TestApp;
  let previousEmulatorHost: string | undefined;

  /** Signs in with Google in the emulator, as the web app's popup does: a verified address. */
  const signUp = (email: string) => signInWithGoogle(emulator, { email });

  /** Marks an emulator account's address verified (what a provider does once its owner proves it), then signs in again. */
  async function verifyAndSignIn(account: EmulatorSignIn): Promise<EmulatorSignIn> {
    const update = await fetch(`${emulator.url}/identitytoolkit.googleapis.com/v1/projects/${emulator.projectId}/accounts:update`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
      body: JSON.stringify({ localId: account.localId, emailVerified: true }),
    });
    expect(update.status).toBe(200);
    const response = await fetch(`${emulator.url}/identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=demo-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: 'correct horse battery', returnSecureToken: true }),
    });
    expect(response.status).toBe(200);
    return (await response.json()) as EmulatorSignIn;
  }

  /** Claims of an emulator ID token for `uid` in `projectId`, valid for the next hour unless overridden. */
  function claims(uid: string, email: string, projectId = emulator.projectId, overrides: JWTPayload = {}): JWTPayload {
    const now = Math.floor(Date.now() / 1000);
    return {
      aud: projectId,
      iss: `https://securetoken.google.com/${projectId}`,
      sub: uid,
      user_id: uid,
      email,
      auth_time: now,
      iat: now,
      exp: now + 3600,
      email_verified: true,
      firebase: { identities: { email: [email] }, sign_in_provider: 'google.com' },
      ...overrides,
    };
  }

  beforeAll(async () => {
    emulator = await startAuthEmulator({ log: (message) => console.log(`[firebase-emulator] ${message}`) });
    // firebase-admin verifies against the emulator when this is set (read on every verification).
    previousEmulatorHost = process.env.FIREBASE_AUTH_EMULATOR_HOST;
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emulator.host;
    app = await startTestApp({
      AUTH_MODE: 'firebase',
      FIREBASE_PROJECT_ID: emulator.projectId,
      FIREBASE_WEB_CONFIG: webConfig(emulator.projectId),
      FIREBASE_AUTH_EMULATOR_HOST: emulator.host,
    });
  }, 540_000);

  afterAll(async () => {
    await app?.close();
    await emulator?.stop();
    if (previousEmulatorHost === undefined) delete process.env.FIREBASE_AUTH_EMULATOR_HOST;
    else process.env.FIREBASE_AUTH_EMULATOR_HOST = previousEmulatorHost;
  });

  it('hands the web app the Firebase config and the emulator URL', async () => {
    const config = await app.rest('GET', '/v1/auth/config');
    expect(config.status).toBe(200);
    expect(config.body).toEqual({
      mode: 'firebase',
      firebase: { ...webConfig(emulator.projectId), emulatorUrl: emulator.url },
      links: { support: null, feedback: null },
    });
  });

  it('accepts an emulator ID token, creating the account on first use and finding it after', async () => {
    const ana = await signUp('ana@example.com');
    const first = await app.rest<{ id: string; email: string }>('GET', '/v1/auth/me', { token: ana.idToken });
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.email).toBe('ana@example.com');
    const again = await app.rest<{ id: string }>('GET', '/v1/auth/me', { token: ana.idToken });
    expect(again.body.id).toBe(first.body.id);
    const stored = await app.deps.db.user.findUniqueOrThrow({ where: { id: first.body.id } });
    expect(stored.firebaseUid).toBe(ana.localId);
  });

  it('issues an extension token for an ID token, which then ingests transcript lines', async () => {
    const bo = await signUp('bo@example.com');
    const issued = await app.rest<{ token: string }>('POST', '/v1/auth/extension-token', { token: bo.idToken });
    expect(issued.status, JSON.stringify(issued.body)).toBe(200);
    expect(issued.body.token).toMatch(/^mbx_/);

    const startedAt = Date.UTC(2026, 10, 20, 15, 0);
    const ingest = await app.rest<{ meetingKey: string; accepted: number }>('POST', '/v1/transcript/lines', {
      token: issued.body.token,
      body: {
        meeting: { sessionId: 'fb-1', meetCode: 'abc-defg-hij', title: 'Firebase stand-up', startedAt },
        lines: [{ captionId: 'c1', revision: 0, speaker: 'Bo', text: 'Signed in with Firebase', spokenAt: startedAt, final: true }],
      },
    });
    expect(ingest.status, JSON.stringify(ingest.body)).toBe(200);
    expect(ingest.body.accepted).toBe(1);
    // Anything beyond sending transcripts needs the session: the extension token is refused (403).
    expect((await app.rest('GET', '/v1/auth/me', { token: issued.body.token })).status).toBe(403);
  });

  it('refuses forged, expired, other-project and unknown-user tokens with 401', async () => {
    const cy = await signUp('cy@example.com');
    const status = async (token?: string) => (await app.rest('GET', '/v1/auth/me', { token })).status;

    // Control: the emulator's tokens are unsigned (alg "none") and firebase-admin accepts them in emulator
    // mode, so a well-formed unsigned token passes; each refusal below differs from it in one respect.
    expect(await status(new UnsecuredJWT(claims(cy.localId, cy.email)).encode())).toBe(200);

    expect(await status()).toBe(401);
    expect(await status('not-a-token')).toBe(401);
    // Forged: the right claims, signed with a key that is not Google's.
    const { privateKey } = await generateKeyPair('RS256');
    const forged = await new SignJWT(claims(cy.localId, cy.email))
      .setProtectedHeader({ alg: 'RS256', kid: 'forged-key' })
      .sign(privateKey);
    expect(await status(forged)).toBe(401);
    // Expired an hour ago.
    const hourAgo = Math.floor(Date.now() / 1000) - 3600;
    const expired = claims(cy.localId, cy.email, emulator.projectId, { iat: hourAgo - 3600, auth_time: hourAgo - 3600, exp: hourAgo });
    expect(await status(new UnsecuredJWT(expired).encode())).toBe(401);
    // Issued for another Firebase project.
    expect(await status(new UnsecuredJWT(claims(cy.localId, cy.email, 'demo-mbox-elsewhere')).encode())).toBe(401);
    // A user the emulator does not know (firebase-admin asks the emulator whether the account exists).
    expect(await status(new UnsecuredJWT(claims('no-such-uid', 'ghost@example.com')).encode())).toBe(401);
    // No account was created for any refused token.
    expect(await app.deps.db.user.count({ where: { email: 'ghost@example.com' } })).toBe(0);
  });

  it('refuses a genuine ID token at a server configured for another project', async () => {
    const dee = await signUp('dee@example.com');
    const other = await startTestApp({
      AUTH_MODE: 'firebase',
      FIREBASE_PROJECT_ID: 'demo-mbox-other',
      FIREBASE_WEB_CONFIG: webConfig('demo-mbox-other'),
    });
    try {
      expect((await other.rest('GET', '/v1/auth/me', { token: dee.idToken })).status).toBe(401);
      // The same token still works where it belongs: one firebase-admin App per project.
      expect((await app.rest('GET', '/v1/auth/me', { token: dee.idToken })).status).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('refuses the token of an account disabled in Firebase', async () => {
    const eve = await signUp('eve@example.com');
    expect((await app.rest('GET', '/v1/auth/me', { token: eve.idToken })).status).toBe(200);
    const disable = await fetch(
      `${emulator.url}/identitytoolkit.googleapis.com/v1/projects/${emulator.projectId}/accounts:update`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer owner' },
        body: JSON.stringify({ localId: eve.localId, disableUser: true }),
      },
    );
    expect(disable.status).toBe(200);
    expect((await app.rest('GET', '/v1/auth/me', { token: eve.idToken })).status).toBe(401);
  });

  it("refuses an unverified e-mail: signing up with a victim's address neither takes over nor squats the account", async () => {
    // The victim's account, linked to their own Firebase user.
    const victim = await app.deps.db.user.create({
      data: { email: 'victim@example.com', name: 'Victim', referralCode: 'victimcode', firebaseUid: 'victim-google-uid' },
    });
    // The attacker signs up with e-mail and password under the victim's address: Firebase issues a
    // genuine ID token for it, with email_verified false.
    const attacker = await signUpWithPassword(emulator, 'victim@example.com');
    for (const answer of [
      await app.rest<{ message: string }>('GET', '/v1/auth/me', { token: attacker.idToken }),
      await app.rest<{ message: string }>('POST', '/v1/auth/extension-token', { token: attacker.idToken }),
    ]) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(403);
      expect(answer.body.message).toBe(
        'Sign-in refused: the e-mail address victim@example.com is not verified with the sign-in provider; verify it, or sign in with Google',
      );
    }
    const webSignIn = await fetch(`${app.url}/trpc/auth.firebaseSignIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ idToken: attacker.idToken }),
    });
    expect(webSignIn.status).toBe(403);
    expect(webSignIn.headers.getSetCookie()).toEqual([]);
    expect(await app.deps.db.session.count({ where: { userId: victim.id } })).toBe(0);

    // Even once the provider says the address is verified, a stored uid is never replaced.
    const verified = await verifyAndSignIn(attacker);
    const relink = await app.rest<{ message: string }>('GET', '/v1/auth/me', { token: verified.idToken });
    expect(relink.status).toBe(403);
    expect(relink.body.message).toBe(
      'Sign-in refused: the account of victim@example.com is linked to another sign-in; ask the administrator of this server to move it',
    );
    expect(await app.deps.db.user.findUniqueOrThrow({ where: { id: victim.id } })).toMatchObject({ firebaseUid: 'victim-google-uid' });
    expect(await app.deps.db.user.count({ where: { email: 'victim@example.com' } })).toBe(1);

    // An unverified address of nobody's account creates no account either.
    const stranger = await signUpWithPassword(emulator, 'stranger@example.com');
    expect((await app.rest('GET', '/v1/auth/me', { token: stranger.idToken })).status).toBe(403);
    expect(await app.deps.db.user.count({ where: { email: 'stranger@example.com' } })).toBe(0);
  });

  it('links an account that has no Firebase user yet only on a verified address, and then keeps it', async () => {
    const legacy = await app.deps.db.user.create({ data: { email: 'legacy@example.com', name: 'Legacy', referralCode: 'legacycode' } });
    const unverified = await signUpWithPassword(emulator, 'legacy@example.com');
    expect((await app.rest('GET', '/v1/auth/me', { token: unverified.idToken })).status).toBe(403);
    expect((await app.deps.db.user.findUniqueOrThrow({ where: { id: legacy.id } })).firebaseUid).toBeNull();

    const verified = await verifyAndSignIn(unverified);
    const me = await app.rest<{ id: string }>('GET', '/v1/auth/me', { token: verified.idToken });
    expect(me.status, JSON.stringify(me.body)).toBe(200);
    expect(me.body.id).toBe(legacy.id);
    expect((await app.deps.db.user.findUniqueOrThrow({ where: { id: legacy.id } })).firebaseUid).toBe(verified.localId);

    // Another Firebase user presenting the same verified address is refused; the link stays.
    const other = await signUp('other-legacy@example.com');
    const forged = new UnsecuredJWT(claims(other.localId, 'legacy@example.com')).encode();
    expect((await app.rest('GET', '/v1/auth/me', { token: forged })).status).toBe(403);
    expect((await app.deps.db.user.findUniqueOrThrow({ where: { id: legacy.id } })).firebaseUid).toBe(verified.localId);
  });

  it('refuses local sign-in with 403', async () => {
    const response = await app.rest<{ message: string }>('POST', '/v1/auth/login', { body: { email: 'ana@example.com' } });
    expect(response.status).toBe(403);
    expect(response.body.message).toMatch(/Firebase/);
  });
});
