#!/usr/bin/env node
// Prints the JavaScript each page makes the browser download (raw and gzipped), against a
// running server: BENCH_URL (default http://localhost:3000). Start one with `npm start`.
import { gzipSync } from 'node:zlib';

const base = process.env.BENCH_URL ?? 'http://localhost:3000';
const pages = process.argv.slice(2).length ? process.argv.slice(2) : ['/login', '/faq', '/de/register', '/now/demo'];

const rows = [];
for (const page of pages) {
  const html = await (await fetch(base + page)).text();
  // noModule scripts are polyfills that current browsers never download.
  const tags = [...html.matchAll(/<script[^>]+src="([^"]+)"[^>]*>/g)].filter((m) => !/noModule/i.test(m[0]));
  const scripts = [...new Set(tags.map((m) => m[1]))];
  let raw = 0;
  let gzip = 0;
  for (const src of scripts) {
    const body = Buffer.from(await (await fetch(new URL(src, base))).arrayBuffer());
    raw += body.length;
    gzip += gzipSync(body, { level: 9 }).length;
  }
  const inline = Buffer.byteLength(html);
  rows.push({ page, scripts: scripts.length, 'js KB': (raw / 1024).toFixed(1), 'js KB gz': (gzip / 1024).toFixed(1), 'html KB': (inline / 1024).toFixed(1) });
}
console.table(rows);
