// SPEC point 2. app/globals.css declares the same values for CSS.
export const breakpoints = { xs: 0, sm: 576, md: 768, lg: 1200, xl: 1904 } as const;
export type Breakpoint = keyof typeof breakpoints;

export function breakpointFor(width: number): Breakpoint {
  if (width >= breakpoints.xl) return 'xl';
  if (width >= breakpoints.lg) return 'lg';
  if (width >= breakpoints.md) return 'md';
  if (width >= breakpoints.sm) return 'sm';
  return 'xs';
}
