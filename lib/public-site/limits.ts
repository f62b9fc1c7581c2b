// How long the operator's texts may be: shared by the admin form (maxLength) and the server.
export const PUBLIC_TEXT_LIMITS = {
  /** The one sentence of the plain home. */
  sentence: 300,
  /** A privacy policy or an imprint. */
  document: 50_000,
} as const;
