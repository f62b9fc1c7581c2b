'use client';

import { createContext, useContext } from 'react';
import type { ShellUser } from '@/lib/auth/shell-user';

interface App {
  brand: string;
  user: ShellUser | null;
  /** The terms the registration dialog shows: the operator's text (null: the built-in one), the billing mode and whether an SFU is configured. */
  terms?: { text: string | null; billingOn: boolean; hasSfu: boolean };
}

const AppContext = createContext<App>({ brand: 'Enclave', user: null });

export const AppContextProvider = AppContext.Provider;

/** The brand name (configuration) and the logged-in user, for client components. */
export function useApp(): App {
  return useContext(AppContext);
}
