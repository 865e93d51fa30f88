/**
 * The top bar's user menu of product §2 (Your Profile, Transactions, Sign out) on Radix. Loaded on
 * interaction by the top bar (docs/decisions/0016-web-entry-budget.md): the first screen paints
 * a plain button that looks the same, and this module (with the Radix menu code) loads when the
 * pointer or focus reaches it, or on the first click, which then opens the menu.
 */
import type { User } from '@coffer/contract';
import { LogOut, Receipt, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';

export interface UserMenuProps {
  user: Pick<User, 'nickname' | 'username' | 'email'>;
  /** Open at mount: the first click landed on the placeholder before this module loaded. */
  defaultOpen?: boolean;
  onSignOut: () => void;
  triggerClassName: string;
  /** The trigger's content (avatar and chevron), the same as the placeholder's. */
  children: ReactNode;
}

export function UserMenu({ user, defaultOpen = false, onSignOut, triggerClassName, children }: UserMenuProps) {
  return (
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger className={triggerClassName} aria-label="User menu">
        {children}
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          <span className="block truncate text-sm font-medium text-slate-900 dark:text-white" title={user.nickname || user.username}>
            {user.nickname || user.username}
          </span>
          <span className="block truncate" title={user.email}>
            {user.email}
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link to="/profile">
            <UserRound className="size-4" aria-hidden="true" /> Your Profile
          </Link>
        </DropdownMenuItem>
        <DropdownMenuItem asChild>
          <Link to="/transactions">
            <Receipt className="size-4" aria-hidden="true" /> Transactions
          </Link>
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onSignOut}>
          <LogOut className="size-4" aria-hidden="true" /> Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
