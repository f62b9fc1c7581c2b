// A synthetic head-and-shoulders "person" in front of a busy room-like background, drawn in pure
// JavaScript (no canvas in Node), for the background-effects test's fake camera. The shapes are
// what the selfie-segmentation model recognises as a person (docs/meetings.md "Background").

/** Every pixel's colour [r, g, b] at (x, y) of a width × height frame; `person` false draws the background only. */
export function syntheticPixel(x, y, width, height, person = true) {
  const u = x / width;
  const v = y / height;
  if (person) {
    const colour = personPixel(u, v, width / height);
    if (colour) return colour;
  }
  return backgroundPixel(u, v);
}

/** Whether (u, v) in 0..1 is clearly inside the drawn person (the test samples there), with a margin. */
export function insidePerson(u, v, aspect, margin = 0.04) {
  return personPixel(u, v, aspect, margin) !== null;
}

/** Clearly outside the person: the test's background samples. */
export function outsidePerson(u, v, aspect, margin = 0.08) {
  return personPixel(u, v, aspect, -margin) === null;
}

function backgroundPixel(u, v) {
  // A wall with coloured shelves and a floor: many edges and colours, which the blur must wash out.
  if (v > 0.8) return stripes(u * 40) ? [120, 92, 64] : [96, 70, 48];
  const shelf = Math.floor(u * 8);
  const inShelf = (u * 8) % 1 > 0.2 && (u * 8) % 1 < 0.8 && v > 0.1 + (shelf % 3) * 0.06 && v < 0.4 + (shelf % 3) * 0.06;
  if (inShelf) return stripes(v * 60) ? hue(shelf * 45) : [30, 30, 30];
  const checker = (Math.floor(u * 32) + Math.floor(v * 18)) % 2;
  return checker ? [170, 190, 205] : [140, 160, 180];
}

function personPixel(u, v, aspect, margin = 0) {
  // Coordinates in "height units" so the head stays round at any aspect ratio.
  const x = (u - 0.5) * aspect;
  const y = v;
  const grow = -margin;
  const head = (x / (0.17 + grow)) ** 2 + ((y - 0.42) / (0.22 + grow)) ** 2 <= 1;
  const neck = Math.abs(x) < 0.07 + grow && y > 0.58 - grow && y < 0.75;
  const shoulderHalf = 0.1 + Math.max(0, y - 0.7) * 1.6;
  const torso = y > 0.72 - grow && Math.abs(x) < Math.min(0.45, shoulderHalf) + grow;
  if (!head && !neck && !torso) return null;
  if (margin !== 0) return [0, 0, 0];
  if (torso && !head) return stripes(y * 30) ? [40, 70, 120] : [46, 78, 132];
  if (neck && !head) return [205, 150, 118];
  // The face: skin with shading, hair on top, eyes, brows, a mouth.
  if (y < 0.3 || (Math.abs(x) > 0.14 && y < 0.44)) return [58, 38, 24];
  for (const side of [-1, 1]) {
    const ex = x - side * 0.065;
    if ((ex / 0.03) ** 2 + ((y - 0.4) / 0.015) ** 2 <= 1) return ex * ex + (y - 0.4) ** 2 < 0.0001 ? [40, 30, 20] : [245, 245, 245];
    if (Math.abs(ex) < 0.035 && Math.abs(y - 0.37) < 0.006) return [58, 38, 24];
  }
  if (Math.abs(x) < 0.05 && Math.abs(y - 0.53) < 0.01) return [160, 60, 60];
  const shade = 1 - 0.35 * (x / 0.17) ** 2;
  return [Math.round(235 * shade), Math.round(185 * shade), Math.round(150 * shade)];
}

const stripes = (t) => Math.floor(t) % 2 === 0;
function hue(degrees) {
  const h = (degrees % 360) / 60;
  const c = 200;
  const x = Math.round(c * (1 - Math.abs((h % 2) - 1)));
  const table = [
    [c, x, 0],
    [x, c, 0],
    [0, c, x],
    [0, x, c],
    [x, 0, c],
    [c, 0, x],
  ];
  return table[Math.floor(h) % 6].map((n) => n + 30);
}
