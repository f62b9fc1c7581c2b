#!/usr/bin/env node
// Renders the bundled background pictures (public/backgrounds/*.webp) in Debian's Chromium:
// drawn here from gradients and shapes, so they are the project's own, with no licence to track.
// Run again after changing a drawing: `node scripts/render-backgrounds.mjs`.
import { writeFile } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { chromiumPath, offlineArgs } from '../tests/support/chromium.mjs';

const WIDTH = 1280;
const HEIGHT = 720;

// Each runs in the page with a 2D context `g` of WIDTH × HEIGHT and a seeded `random`.
const drawings = {
  dawn: `
    const sky = g.createLinearGradient(0, 0, 0, H);
    sky.addColorStop(0, '#2b3a67'); sky.addColorStop(0.55, '#e98a6b'); sky.addColorStop(1, '#f6d28b');
    g.fillStyle = sky; g.fillRect(0, 0, W, H);
    const sun = g.createRadialGradient(W * 0.7, H * 0.62, 10, W * 0.7, H * 0.62, 260);
    sun.addColorStop(0, 'rgba(255,240,200,1)'); sun.addColorStop(1, 'rgba(255,240,200,0)');
    g.fillStyle = sun; g.fillRect(0, 0, W, H);
    for (const [base, colour] of [[0.7, '#7a4f6d'], [0.8, '#4f3a5e'], [0.9, '#2e2746']]) {
      g.fillStyle = colour; g.beginPath(); g.moveTo(0, H);
      for (let x = 0; x <= W; x += 20) g.lineTo(x, H * base + Math.sin(x / 140 + base * 9) * 30 + Math.sin(x / 53) * 8);
      g.lineTo(W, H); g.fill();
    }`,
  forest: `
    const air = g.createLinearGradient(0, 0, 0, H);
    air.addColorStop(0, '#d8eadf'); air.addColorStop(1, '#7fae8f');
    g.fillStyle = air; g.fillRect(0, 0, W, H);
    for (const [depth, colour] of [[0.45, '#8fb89c'], [0.6, '#5e8f70'], [0.78, '#3b6b4e'], [0.95, '#234a33']]) {
      g.fillStyle = colour;
      for (let i = 0; i < 26; i++) {
        const x = random() * W, w = 40 + random() * 60 * depth, top = H * (1 - depth) - random() * 120 * depth;
        g.beginPath(); g.moveTo(x, top); g.lineTo(x - w, H); g.lineTo(x + w, H); g.fill();
      }
    }`,
  studio: `
    const wall = g.createRadialGradient(W * 0.5, H * 0.4, 50, W * 0.5, H * 0.5, W * 0.7);
    wall.addColorStop(0, '#5c6f86'); wall.addColorStop(1, '#1d2633');
    g.fillStyle = wall; g.fillRect(0, 0, W, H);
    for (let i = 0; i < 40; i++) {
      const x = random() * W, y = random() * H * 0.8, r = 20 + random() * 60;
      const light = g.createRadialGradient(x, y, 0, x, y, r);
      light.addColorStop(0, 'rgba(255,214,150,0.35)'); light.addColorStop(1, 'rgba(255,214,150,0)');
      g.fillStyle = light; g.beginPath(); g.arc(x, y, r, 0, Math.PI * 2); g.fill();
    }`,
};

const browser = await chromium.launch({ executablePath: chromiumPath, args: offlineArgs });
try {
  const page = await browser.newPage();
  for (const [name, drawing] of Object.entries(drawings)) {
    const base64 = await page.evaluate(
      async ({ drawing, W, H }) => {
        const canvas = new OffscreenCanvas(W, H);
        const g = canvas.getContext('2d');
        let seed = 7;
        const random = () => ((seed = (seed * 16807) % 2147483647) - 1) / 2147483646;
        new Function('g', 'W', 'H', 'random', drawing)(g, W, H, random);
        const blob = await canvas.convertToBlob({ type: 'image/webp', quality: 0.8 });
        const bytes = new Uint8Array(await blob.arrayBuffer());
        let binary = '';
        for (const byte of bytes) binary += String.fromCharCode(byte);
        return btoa(binary);
      },
      { drawing, W: WIDTH, H: HEIGHT },
    );
    const file = new URL(`../public/backgrounds/${name}.webp`, import.meta.url);
    await writeFile(file, Buffer.from(base64, 'base64'));
    console.log(`${name}.webp ${Math.round((base64.length * 3) / 4 / 1024)} KB`);
  }
} finally {
  await browser.close();
}
