import fs from 'node:fs/promises';
import path from 'node:path';
import { simpleParser } from 'mailparser';
import { outboxFile } from './outbox.js';

export interface OutboxEntry {
  number: number;
  date: Date | null;
  to: string;
  subject: string;
}

/** The messages written to the outbox folder (no SMTP_URL), oldest first. */
export async function listOutbox(outboxDir: string): Promise<OutboxEntry[]> {
  const names = await fs.readdir(outboxDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    throw error;
  });
  const entries: OutboxEntry[] = [];
  for (const name of names.filter((n) => /^\d+\.eml$/.test(n)).sort()) {
    const parsed = await simpleParser(await fs.readFile(path.join(outboxDir, name)));
    entries.push({
      number: Number(name.slice(0, -4)),
      date: parsed.date ?? null,
      to: [parsed.to ?? []]
        .flat()
        .map((a) => a.text)
        .join(', '),
      subject: parsed.subject ?? '',
    });
  }
  return entries;
}

/** One message as a person reads it: its headers, then its text; null when there is no such message. */
export async function showOutboxMessage(outboxDir: string, number: number): Promise<string | null> {
  const raw = await fs.readFile(outboxFile(outboxDir, number)).catch(() => null);
  if (!raw) return null;
  const parsed = await simpleParser(raw);
  return [
    `From: ${parsed.from?.text ?? ''}`,
    `To: ${[parsed.to ?? []]
      .flat()
      .map((a) => a.text)
      .join(', ')}`,
    `Date: ${parsed.date?.toISOString() ?? ''}`,
    `Subject: ${parsed.subject ?? ''}`,
    '',
    (parsed.text ?? '').trimEnd(),
  ].join('\n');
}
