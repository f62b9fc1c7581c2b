/** @jest-environment jsdom */
// Issue 49 (polls): the dialog as a person uses it, on a real Polls store with no one else in the
// call — the form's rules (a question, 2–10 options), the focus after launching, the live tally,
// voting, changing the vote, and the close (docs/meetings.md "Polls").
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import PollsCorner from '@/components/meeting/features/polls/PollsCorner';
import { Polls } from '@/lib/meeting/client/polls/polls';
import en from '@/messages/en.json';
import { fanOut } from '../support/feature-context';

const p = en.Polls;

// jsdom has <dialog> but not its modal methods.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

/** Polls on a page whose peers are `sent`'s recipients; every message sent is kept. */
function page(peers: { id: string; name: string }[] = []) {
  const sent: [string, unknown][] = [];
  const polls = new Polls(
    fanOut({
      selfId: 'me',
      peers: () => peers,
      send: (to, message) => (sent.push([to, message]), true),
      isHost: () => false,
      selfIsHost: () => false,
    }),
  );
  const view = (open: boolean) => (
    <NextIntlClientProvider locale="en" messages={en}>
      <PollsCorner polls={polls} open={open} onOpen={() => undefined} onClose={() => undefined} />
    </NextIntlClientProvider>
  );
  const rendered = render(view(true));
  return { polls, sent, rerender: (open: boolean) => rendered.rerender(view(open)) };
}

describe('the "Polls" dialog', () => {
  it('asks for a question and two options before it launches, adds up to ten, and gives the focus back to "New poll"', () => {
    const { polls, sent } = page([{ id: 'bo', name: 'Bo' }]);
    const dialog = screen.getByRole('dialog', { name: p.title });
    fireEvent.change(within(dialog).getByLabelText(p.question), { target: { value: 'Lunch?' } });
    fireEvent.change(within(dialog).getByLabelText('Option 1'), { target: { value: 'Pizza' } });
    fireEvent.click(within(dialog).getByRole('button', { name: p.launch }));
    expect(screen.getByRole('alert')).toHaveTextContent('Write a question and between 2 and 10 options.');
    expect(polls.getSnapshot()).toEqual([]);

    // Ten options at most; a third one can be removed again.
    for (let count = 2; count < 10; count++) fireEvent.click(within(dialog).getByRole('button', { name: p.addOption }));
    expect(within(dialog).getByLabelText('Option 10')).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: p.addOption })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove option 10' }));
    fireEvent.change(within(dialog).getByLabelText('Option 2'), { target: { value: 'Soup' } });
    fireEvent.click(within(dialog).getByLabelText(p.multiple));
    fireEvent.click(within(dialog).getByRole('button', { name: p.launch }));

    expect(polls.getSnapshot()).toMatchObject([{ question: 'Lunch?', options: ['Pizza', 'Soup'], multiple: true, mine: true }]);
    expect(sent).toEqual([['bo', expect.objectContaining({ t: 'poll-open', question: 'Lunch?', options: ['Pizza', 'Soup'], multiple: true })]]);
    expect(within(dialog).getByRole('button', { name: p.newPoll })).toHaveFocus();
    expect(within(dialog).getByTestId('poll')).toHaveTextContent(`${p.byYou} · ${p.several} · ${p.open}`);
  });

  it('shows the tally as ballots arrive, takes our vote, lets us change it, and freezes at the close', () => {
    const { polls } = page([{ id: 'bo', name: 'Bo' }]);
    act(() => void polls.launch('Lunch?', ['Pizza', 'Soup'], false));
    const id = polls.getSnapshot()[0]!.id;
    const card = screen.getByTestId('poll');
    const results = () =>
      within(card)
        .getAllByTestId('poll-result')
        .map((result) => result.textContent);
    expect(results()).toEqual(['0 votes · 0%', '0 votes · 0%']);
    act(() => polls.receive('bo', { t: 'poll-vote', id, choices: [1] }));
    expect(results()).toEqual(['0 votes · 0%', '1 vote · 100%']);
    expect(within(card).getByTestId('poll-voters')).toHaveTextContent('1 person voted');

    const vote = within(card).getByRole('button', { name: p.vote });
    expect(vote).toBeDisabled();
    fireEvent.click(within(card).getByLabelText('Pizza'));
    fireEvent.click(vote);
    expect(results()).toEqual(['1 vote · 50%', '1 vote · 50%']);
    // The same choice again is not a change; another one is.
    expect(within(card).getByRole('button', { name: p.changeVote })).toBeDisabled();
    fireEvent.click(within(card).getByLabelText('Soup'));
    fireEvent.click(within(card).getByRole('button', { name: p.changeVote }));
    expect(results()).toEqual(['0 votes · 0%', '2 votes · 100%']);

    fireEvent.click(within(card).getByRole('button', { name: p.close }));
    expect(within(card).getByTestId('poll-status')).toHaveTextContent(p.closed);
    expect(within(card).getByLabelText('Pizza')).toBeDisabled();
    expect(within(card).queryByRole('button', { name: p.changeVote })).toBeNull();
    expect(card).toHaveTextContent(p.closedNote);
  });

  it('someone else’s new poll shows a note while the dialog is closed, gone once it opens', () => {
    const { polls, rerender } = page([{ id: 'ada', name: 'Ada' }]);
    rerender(false);
    act(() => polls.receive('ada', { t: 'poll-open', id: 'p1', question: 'Lunch?', options: ['Pizza', 'Soup'], multiple: false }));
    const note = screen.getByRole('region', { name: p.title });
    expect(note).toHaveTextContent('Ada started a poll: Lunch?');
    expect(screen.queryByRole('dialog')).toBeNull();
    rerender(true);
    expect(screen.queryByRole('region', { name: p.title })).toBeNull();
    expect(within(screen.getByRole('dialog', { name: p.title })).getByTestId('poll')).toHaveTextContent('By Ada');
  });
});
