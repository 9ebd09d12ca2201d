// The browser lane's one way to open a page: the operating system's Chromium (Debian's `chromium`
// package) driven by playwright-core, which downloads no browser of its own. Each page gets a
// fresh profile, and every request it makes is recorded and refused unless it is the file itself
// or inline data, so a page that reaches for the network fails its test instead of loading.

import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Where the lane writes its screenshots (gitignored). */
export const OUTPUT_DIR = fileURLToPath(new URL('../../test-output/browser/', import.meta.url));

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface OpenedPage {
  readonly page: Page;
  /** Every URL the page asked for, in order; only file: and data: ones were let through. */
  readonly requests: string[];
  /** Console errors and uncaught page errors, as text. */
  readonly errors: string[];
  close(): Promise<void>;
}

export async function openPage(
  file: string,
  options: {
    readonly javaScript?: boolean;
    readonly hash?: string;
    /** The viewport's width in CSS pixels; 1200 unless given. */
    readonly width?: number;
  } = {},
): Promise<OpenedPage> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `no browser at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium)`,
    );
  }
  const profile = await mkdtemp(join(tmpdir(), 'eval-gate-chromium-'));
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      javaScriptEnabled: options.javaScript ?? true,
      viewport: { width: options.width ?? 1200, height: 900 },
      timeout: 60_000,
    });
  } catch (error) {
    await rm(profile, { recursive: true, force: true });
    throw error;
  }
  const requests: string[] = [];
  const errors: string[] = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    requests.push(url);
    if (url.startsWith('file:') || url.startsWith('data:')) await route.continue();
    else await route.abort();
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`file://${file}${options.hash === undefined ? '' : `#${options.hash}`}`, {
    waitUntil: 'load',
    timeout: 60_000,
  });
  return {
    page,
    requests,
    errors,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(OUTPUT_DIR, { recursive: true });
  const path = join(OUTPUT_DIR, name);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/** The element's computed background colour, as `rgb(r, g, b)`. */
export async function backgroundOf(locator: Locator): Promise<string> {
  // The project compiles without the DOM library; the function runs in the page, where it exists.
  type Styles = { getComputedStyle(el: unknown): { backgroundColor: string } };
  return locator.evaluate(
    (el) => (globalThis as unknown as Styles).getComputedStyle(el).backgroundColor,
  );
}
