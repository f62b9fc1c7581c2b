import { ShellFrame } from '@/components/shell/ShellFrame';

export default function ShellLayout({ children }: { children: React.ReactNode }) {
  return <ShellFrame>{children}</ShellFrame>;
}
