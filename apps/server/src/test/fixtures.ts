import type { Message } from '@mbox/shared';
import { credentialCache } from '../modules/auth/credential-cache.js';
import type { TestApp } from './app.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Gives the account an active premium period (or an expired one with `days` < 0). */
export async function makePremium(app: TestApp, email: string, days = 30): Promise<void> {
  await app.deps.db.user.update({
    where: { email },
    data: { isPremium: true, premiumUntil: new Date(Date.now() + days * DAY_MS) },
  });
  // Written behind the services' back: signed-in users cached with their credentials must be read again.
  credentialCache(app.deps).clear();
}

export interface SeedLine {
  speaker: string;
  text: string;
}

/** Stores a meeting with the given lines through the ingest call; returns its key and messages. */
export async function seedMeeting(
  app: TestApp,
  token: string,
  sessionId: string,
  lines: SeedLine[],
  startedAt = Date.UTC(2026, 10, 20, 15, 0),
): Promise<{ meetingKey: string; messages: Message[] }> {
  const ingest = await app.rest<{ meetingKey: string }>('POST', '/v1/transcript/lines', {
    token,
    body: {
      meeting: { sessionId, meetCode: 'abc-defg-hij', startedAt },
      lines: lines.map((line, i) => ({
        captionId: `c${i}`,
        revision: 0,
        speaker: line.speaker,
        text: line.text,
        spokenAt: startedAt + i * 1000,
        final: true,
      })),
    },
  });
  if (ingest.status !== 200) throw new Error(`ingest failed: ${ingest.status} ${JSON.stringify(ingest.body)}`);
  const detail = await app.rest<{ messages: Message[] }>('GET', `/v1/meeting/${ingest.body.meetingKey}`, { token });
  return { meetingKey: ingest.body.meetingKey, messages: detail.body.messages };
}

/** A caption line as the extension sends it, spoken `captionId`'s number of seconds after `startedAt`. */
export function captionLine(startedAt: number, captionId: string, revision: number, text: string, speaker = 'Ana') {
  return { captionId, revision, speaker, text, spokenAt: startedAt + Number(captionId.replace(/\D/g, '')) * 1000, final: false };
}
