// Rasterizes media/icon.svg into media/icon.png (128x128, the Marketplace's extension icon size) with the
// Chromium the browser tests use. Run after editing the SVG; the PNG is committed.
//   node scripts/make-icon.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { root } from './bundles.mjs';

const svg = readFileSync(path.join(root, 'media/icon.svg'), 'utf8');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 128, height: 128 }, deviceScaleFactor: 1 });
  await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
  const png = await page.locator('svg').screenshot({ omitBackground: true });
  writeFileSync(path.join(root, 'media/icon.png'), png);
  console.log(`make-icon: media/icon.png (${png.length} bytes)`);
} finally {
  await browser.close();
}
