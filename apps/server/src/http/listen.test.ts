import { createServer, type AddressInfo, type Server } from 'node:net';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { choosePort, servedUrl } from './listen.js';

describe('servedUrl', () => {
  const bound = (address: string, family: 'IPv4' | 'IPv6', port = 3000): AddressInfo => ({ address, family, port });

  it('names loopback and all-interface binds localhost, with the bound port', () => {
    expect(servedUrl(bound('127.0.0.1', 'IPv4', 41234), '127.0.0.1')).toBe('http://localhost:41234');
    expect(servedUrl(bound('::1', 'IPv6'), 'localhost')).toBe('http://localhost:3000');
    expect(servedUrl(bound('0.0.0.0', 'IPv4'), '0.0.0.0')).toBe('http://localhost:3000');
    expect(servedUrl(bound('::', 'IPv6'), '::')).toBe('http://localhost:3000');
  });

  it('keeps a host name, and writes other addresses as they are bound', () => {
    expect(servedUrl(bound('192.168.1.20', 'IPv4'), 'mbox.lan')).toBe('http://mbox.lan:3000');
    expect(servedUrl(bound('192.168.1.20', 'IPv4'), '192.168.1.20')).toBe('http://192.168.1.20:3000');
    expect(servedUrl(bound('fd00::20', 'IPv6'), 'fd00::20')).toBe('http://[fd00::20]:3000');
  });
});

describe('choosePort', () => {
  const holders: Server[] = [];
  afterEach(async () => {
    await Promise.all(holders.splice(0).map((holder) => new Promise((resolve) => holder.close(resolve))));
  });

  async function takenPort(): Promise<number> {
    const holder = createServer();
    holders.push(holder);
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    return (holder.address() as AddressInfo).port;
  }

  function recordingLog() {
    const lines: { msg: string; taken?: number; port?: number }[] = [];
    return { lines, log: pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) }) };
  }

  it('gives way to a free port when the default port is taken, and says so', async () => {
    const taken = await takenPort();
    const { lines, log } = recordingLog();
    const port = await choosePort({ HOST: '127.0.0.1', PORT: taken }, false, log);
    expect(port).not.toBe(taken);
    expect(port).toBeGreaterThan(0);
    expect(lines).toMatchObject([{ taken, port, msg: `port ${taken} is in use by another program: serving on port ${port} instead (set PORT to choose one)` }]);
  });

  it('keeps a PORT someone chose, taken or not, and a free default port', async () => {
    const taken = await takenPort();
    const { lines, log } = recordingLog();
    expect(await choosePort({ HOST: '127.0.0.1', PORT: taken }, true, log)).toBe(taken);
    const free = await takenPort();
    await new Promise((resolve) => holders.pop()!.close(resolve));
    expect(await choosePort({ HOST: '127.0.0.1', PORT: free }, false, log)).toBe(free);
    expect(lines).toEqual([]);
  });
});
