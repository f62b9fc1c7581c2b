import { isMeetingId, MEETING_PAGE, meetingApiPath, meetingPagePath } from '@/lib/meeting-address';
import { isWasmPage } from '@/lib/security/page-policy';

// Issue 45: a meeting's addresses have one home, which the proxy, "Join a meeting", the room
// lookup and the browser's call all read.
describe("a meeting's addresses", () => {
  it('accepts the ids this server issues and nothing that could leave the path', () => {
    expect(isMeetingId('Ab_9-x')).toBe(true);
    for (const bad of ['', 'a/b', 'a b', '../x', 'x'.repeat(65), 'é']) expect(isMeetingId(bad)).toBe(false);
  });

  it('builds the page and API paths, encoding what the API path carries', () => {
    expect(meetingPagePath('abc')).toBe('/now/abc');
    expect(meetingApiPath('abc')).toBe('/api/meeting/abc');
    expect(meetingApiPath('a b', 'join')).toBe('/api/meeting/a%20b/join');
  });

  it('matches the meeting page with or without its trailing slash, and the policy follows it', () => {
    expect(MEETING_PAGE.exec('/now/abc/')?.[1]).toBe('abc');
    expect(MEETING_PAGE.test('/now/abc/extra')).toBe(false);
    expect(isWasmPage('/now/abc')).toBe(true);
    expect(isWasmPage('/dashboard')).toBe(false);
  });
});
