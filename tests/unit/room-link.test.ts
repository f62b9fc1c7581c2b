import { colorOf, COLORS, DEFAULT_COLOR } from '@/lib/colors';
import { shortLink } from '@/lib/rooms/short-link';

describe('shortLink (issue 33): a meeting link named in a narrow card', () => {
  it('keeps the host and path and cuts the meeting id with an ellipsis', () => {
    expect(shortLink('https://meet.example.com/now/AbCdEfGhIjKlMnOpQrStUv')).toBe('meet.example.com/now/AbCdEf…');
    expect(shortLink('http://localhost:3000/now/x-_yz0123456789abcdefg')).toBe('localhost:3000/now/x-_yz0…');
  });

  it('leaves a short id whole', () => {
    expect(shortLink('https://meet.example.com/now/abc')).toBe('meet.example.com/now/abc');
  });

  it('never returns more than host, path and seven characters of the id', () => {
    const link = `https://h.example/now/${'a'.repeat(22)}`;
    expect(shortLink(link).length).toBe('h.example/now/'.length + 7);
  });

  it('cuts a value that is not a URL instead of failing', () => {
    expect(shortLink('not a url but a rather long piece of text')).toMatch(/^not a url.{22}…$/);
  });
});

describe('the default colour (issue 33)', () => {
  it('is not red, and unknown numbers fall back to it', () => {
    expect(DEFAULT_COLOR).toBeGreaterThanOrEqual(1);
    expect(DEFAULT_COLOR).toBeLessThanOrEqual(COLORS.length);
    expect(colorOf(DEFAULT_COLOR)).not.toBe('#dc2626');
    expect(colorOf(0)).toBe(colorOf(DEFAULT_COLOR));
  });
});
