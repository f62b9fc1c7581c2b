/** @jest-environment jsdom */
import { act, fireEvent, render, screen } from '@testing-library/react';
import { NextIntlClientProvider } from 'next-intl';
import { ToastProvider, useToast } from '@/components/toast/ToastProvider';
import en from '@/messages/en.json';

function Trigger() {
  const toast = useToast();
  return (
    <>
      <button onClick={() => toast.success('Saved')}>one</button>
      <button onClick={() => toast.error('Broken')}>two</button>
    </>
  );
}

function renderWithToasts() {
  return render(
    <NextIntlClientProvider locale="en" messages={en}>
      <ToastProvider>
        <Trigger />
      </ToastProvider>
    </NextIntlClientProvider>,
  );
}

describe('toasts on screen', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('shows one toast at a time and the next when the first times out after 3 s', () => {
    renderWithToasts();
    fireEvent.click(screen.getByText('one'));
    fireEvent.click(screen.getByText('two'));
    expect(screen.getByTestId('toast')).toHaveTextContent('Saved');
    expect(screen.queryByText('Broken')).toBeNull();
    act(() => jest.advanceTimersByTime(2900));
    expect(screen.getByTestId('toast')).toHaveTextContent('Saved');
    act(() => jest.advanceTimersByTime(200));
    expect(screen.getByTestId('toast')).toHaveTextContent('Broken');
    expect(screen.getByRole('alert')).toContainElement(screen.getByTestId('toast'));
  });

  it('a click dismisses the toast', () => {
    renderWithToasts();
    fireEvent.click(screen.getByText('one'));
    fireEvent.click(screen.getByTestId('toast'));
    expect(screen.queryByTestId('toast')).toBeNull();
  });
});
