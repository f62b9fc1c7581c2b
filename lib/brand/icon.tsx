// The app's icon and social image, drawn from one padlock shape at build time (next/og renders
// them with its bundled Geist font; nothing is fetched). The public frame's BrandMark is the same.
import { ImageResponse } from 'next/og';

export const BRAND_COLOUR = '#1f7a4d';

/** The padlock on a rounded square, as SVG text. `maskable` leaves the safe zone Android crops to. */
export function brandIconSvg({ maskable = false } = {}): string {
  const body = `<path d="M22 28v-6a10 10 0 0 1 20 0v6" fill="none" stroke="#fff" stroke-width="5" stroke-linecap="round"/><rect x="15" y="28" width="34" height="24" rx="5" fill="#fff"/><circle cx="32" cy="40" r="4" fill="${BRAND_COLOUR}"/>`;
  const content = maskable ? `<g transform="translate(6.4 6.4) scale(0.8)">${body}</g>` : body;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="${maskable ? 0 : 14}" fill="${BRAND_COLOUR}"/>${content}</svg>`;
}

const svgDataUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

/** The icon as a PNG of `size` pixels. */
export function brandIconPng(size: number, options?: { maskable?: boolean }): ImageResponse {
  return new ImageResponse(
    // eslint-disable-next-line @next/next/no-img-element -- satori draws <img>, not next/image
    <img src={svgDataUrl(brandIconSvg(options))} width={size} height={size} alt="" />,
    { width: size, height: size },
  );
}

/** The Open Graph / Twitter card: 1200×630, the mark, the brand name and the promise. */
export function socialImage(brand: string, tagline: string): ImageResponse {
  return new ImageResponse(
    <div
      style={{
        width: '100%',
        height: '100%',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'center',
        padding: 80,
        background: 'linear-gradient(135deg, #0f3d27 0%, #1f7a4d 100%)',
        color: '#fff',
      }}
    >
      {/* eslint-disable-next-line @next/next/no-img-element -- satori draws <img>, not next/image */}
      <img src={svgDataUrl(brandIconSvg())} width={120} height={120} alt="" />
      <div style={{ marginTop: 48, fontSize: 96, fontWeight: 700 }}>{brand}</div>
      <div style={{ marginTop: 16, fontSize: 44, opacity: 0.9 }}>{tagline}</div>
    </div>,
    { width: 1200, height: 630 },
  );
}

/** A .ico file holding one PNG (allowed since Windows Vista; every browser reads it). */
export function icoFromPng(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(6 + 16);
  header.writeUInt16LE(0, 0); // reserved
  header.writeUInt16LE(1, 2); // type: icon
  header.writeUInt16LE(1, 4); // one image
  header.writeUInt8(size >= 256 ? 0 : size, 6); // width (0 means 256)
  header.writeUInt8(size >= 256 ? 0 : size, 7); // height
  header.writeUInt16LE(1, 10); // colour planes
  header.writeUInt16LE(32, 12); // bits per pixel
  header.writeUInt32LE(png.length, 14); // size of the image data
  header.writeUInt32LE(header.length, 18); // where it starts
  return Buffer.concat([header, png]);
}
