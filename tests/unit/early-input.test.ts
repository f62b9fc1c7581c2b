/**
 * @jest-environment jsdom
 */
import { EARLY_INPUT_WAIT_MS, REACT_PROPS_KEY, earlyInputGuard } from '@/lib/early-input';

// The rules of the inline script that holds what is done before React has the page; the real
// browser, with the page's scripts held back, is tests/e2e/early-input.spec.ts.

/** What react-dom does to an element it has hydrated: a props key with a random suffix. */
const own = (element: Element) => Object.assign(element, { [`${REACT_PROPS_KEY}x1y2`]: {} });
const disown = (element: Element) => delete (element as unknown as Record<string, unknown>)[`${REACT_PROPS_KEY}x1y2`];

/** The interval the script polls on; a few of them. */
const tick = () => jest.advanceTimersByTime(200);

beforeAll(() => {
  jest.useFakeTimers();
  new Function(earlyInputGuard)();
});
afterAll(() => jest.useRealTimers());

let seen: string[];
beforeEach(() => {
  disown(document.body);
  seen = [];
  document.body.innerHTML = `
    <form id="login"><input name="password" value="secret"><button id="send" name="via" value="button">Log in</button></form>
    <form id="native" action="/elsewhere"><button id="native-send">Go</button></form>
    <button id="language" type="button">Language</button>`;
  for (const id of ['send', 'language', 'native-send']) document.getElementById(id)!.addEventListener('click', () => seen.push(`click ${id}`));
  for (const id of ['login', 'native']) {
    document.getElementById(id)!.addEventListener('submit', (event) => {
      seen.push(`submit ${id} by ${(event as SubmitEvent).submitter?.id ?? 'nothing'}`);
      event.preventDefault();
    });
  }
  tick();
});

const element = (id: string) => document.getElementById(id)!;

it('holds a button pressed before React has it and presses it once React does, however often it was pressed', () => {
  element('language').click();
  element('language').click();
  tick();
  expect(seen).toEqual([]);
  own(element('language'));
  tick();
  tick();
  expect(seen).toEqual(['click language']);
});

it('never lets the browser send a form of the app, and sends it by the same button once React has it', () => {
  const submit = new SubmitEvent('submit', { bubbles: true, cancelable: true, submitter: element('send') });
  element('login').dispatchEvent(submit);
  expect(submit.defaultPrevented).toBe(true);
  expect(seen).toEqual([]);
  // The document is React's, the form not yet (a part still streaming): the form still waits.
  own(document.body);
  tick();
  expect(seen).toEqual([]);
  own(element('login'));
  tick();
  expect(seen).toEqual(['submit login by send']);
});

it('holds the click on a submit button, so that the form is sent once, by React', () => {
  element('send').click();
  tick();
  expect(seen).toEqual([]);
  own(element('send'));
  own(element('login'));
  tick();
  expect(seen).toEqual(['click send', 'submit login by send']);
});

it('leaves a form with its own action to the browser', () => {
  element('native-send').click();
  expect(seen).toEqual(['click native-send', 'submit native by native-send']);
});

it("passes everything once the document is React's: a button a library drew is never React's", () => {
  own(document.body);
  element('language').click();
  expect(seen).toEqual(['click language']);
});

it("plays a held click once the document is React's, even on a button React never owns", () => {
  element('language').click();
  own(document.body);
  tick();
  expect(seen).toEqual(['click language']);
});

it('drops what was held for a button that left the page, or after the chunk time-out', () => {
  element('language').click();
  const gone = element('language');
  gone.remove();
  own(gone);
  tick();
  expect(seen).toEqual([]);

  disown(gone);
  document.body.appendChild(gone);
  gone.click();
  jest.advanceTimersByTime(EARLY_INPUT_WAIT_MS + 100);
  own(document.body);
  tick();
  expect(seen).toEqual([]);
});
