/** @jest-environment jsdom */
import { fireEvent, render, screen } from '@testing-library/react';
import { lazyComponent } from '@/components/dialog/lazy';
import { NextIntlClientProvider } from 'next-intl';
import { Dialog } from '@/components/dialog/Dialog';
import { ModalProvider, useModal } from '@/components/dialog/ModalProvider';
import en from '@/messages/en.json';

// jsdom has <dialog> but not its modal methods.
beforeAll(() => {
  HTMLDialogElement.prototype.showModal = function showModal(this: HTMLDialogElement) {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close(this: HTMLDialogElement) {
    this.removeAttribute('open');
  };
});

const First = ({ close }: { close: () => void }) => (
  <Dialog title="First dialog" onClose={close}>
    first body
  </Dialog>
);
const Second = ({ close }: { close: () => void }) => (
  <Dialog title="Second dialog" onClose={close}>
    second body
  </Dialog>
);

// A modal whose code arrives later, as the registry's do (components/modals/registry.ts).
let deliver: (component: typeof First) => void = () => {};
const Later = lazyComponent(() => new Promise<typeof First>((resolve) => (deliver = resolve)));

function Openers() {
  const modal = useModal();
  return (
    <>
      <button onClick={() => modal.open('first')}>open first</button>
      <button onClick={() => modal.open('second')}>open second</button>
      <button onClick={() => modal.open('later')}>open later</button>
    </>
  );
}

function renderHost() {
  return render(
    <NextIntlClientProvider locale="en" messages={en}>
      <ModalProvider modals={{ first: First, second: Second, later: Later }}>
        <Openers />
      </ModalProvider>
    </NextIntlClientProvider>,
  );
}

describe('SPEC point 2: dialogs appear one at a time', () => {
  it('opening a second dialog replaces the first', () => {
    renderHost();
    fireEvent.click(screen.getByText('open first'));
    expect(screen.getByRole('dialog', { name: 'First dialog' })).toBeInTheDocument();
    fireEvent.click(screen.getByText('open second'));
    expect(screen.getAllByRole('dialog')).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Second dialog' })).toBeInTheDocument();
  });

  it('the labelled close button closes it', () => {
    renderHost();
    fireEvent.click(screen.getByText('open first'));
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});

describe('issue 17: a modal whose code loads when it opens', () => {
  it('shows a spinner hidden from assistive technology, then the dialog', async () => {
    const { container } = renderHost();
    const opener = screen.getByText('open later');
    opener.focus();
    fireEvent.click(opener);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(container.ownerDocument.querySelector('.dialog-loading')?.closest('[aria-hidden="true"]')).not.toBeNull();
    // The spinner takes no focus: the dialog returns it to the opener when it closes.
    expect(document.activeElement).toBe(opener);
    deliver(First);
    expect(await screen.findByRole('dialog', { name: 'First dialog' })).toBeInTheDocument();
    expect(container.ownerDocument.querySelector('.dialog-loading')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});
