import { describe, expect, it } from 'vitest';
import { EventBus, type EventMap } from './events.js';

const changed = (userId: string, meetingId: string): EventMap['meeting.changed'] => ({ userId, meetingId, kind: 'updated' });

describe('event bus', () => {
  it('hands an event only to the listeners of its key, and to those of every key', async () => {
    const bus = new EventBus();
    await bus.start();
    const got: string[] = [];
    bus.listen('meeting.lines', 'm1', (e) => got.push(`m1:${e.meetingId}`));
    bus.listen('meeting.lines', 'm2', (e) => got.push(`m2:${e.meetingId}`));
    bus.listen('meeting.lines', null, (e) => got.push(`all:${e.meetingId}`));
    bus.listen('meeting.changed', 'u1', (e) => got.push(`u1:${e.meetingId}`));
    bus.emit('meeting.lines', { userId: 'u1', meetingId: 'm1', messageIds: ['a'] });
    bus.emit('meeting.changed', changed('u1', 'm9'));
    bus.emit('meeting.changed', changed('u2', 'm8'));
    expect(got).toEqual(['m1:m1', 'all:m1', 'u1:m9']);
    await bus.close();
  });

  it('stops a listener when asked', async () => {
    const bus = new EventBus();
    await bus.start();
    const got: string[] = [];
    const stop = bus.listen('meeting.changed', 'u1', (e) => got.push(e.meetingId));
    bus.emit('meeting.changed', changed('u1', 'a'));
    stop();
    bus.emit('meeting.changed', changed('u1', 'b'));
    expect(got).toEqual(['a']);
    await bus.close();
  });
});
