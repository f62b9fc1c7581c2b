import { PublicFrame } from '@/components/public/PublicFrame';

export default function PublicLayout({ children }: { children: React.ReactNode }) {
  return <PublicFrame>{children}</PublicFrame>;
}
