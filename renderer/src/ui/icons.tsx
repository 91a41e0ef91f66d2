/** Inline SVG icons (no icon font, no request): decorative, so hidden from assistive technology. */
import type { ReactNode } from 'react';

interface IconProps {
  size?: number;
  className?: string;
}

function Svg({ size = 24, className, children }: IconProps & { children: ReactNode }) {
  return (
    <svg
      className={className}
      viewBox="0 0 48 48"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="3"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {children}
    </svg>
  );
}

export function CheckIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <circle cx="24" cy="24" r="20" />
      <path d="M14.5 24.5l6.5 6.5 12.5-13" />
    </Svg>
  );
}

export function CrossIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <circle cx="24" cy="24" r="20" />
      <path d="M17 17l14 14M31 17L17 31" />
    </Svg>
  );
}

export function WarningIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M24 5L44 41H4z" />
      <path d="M24 19v10M24 35v.5" />
    </Svg>
  );
}

export function LockIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <rect x="9" y="21" width="30" height="21" rx="4" />
      <path d="M15 21v-6a9 9 0 0118 0v6" />
      <path d="M24 29v5" />
    </Svg>
  );
}

export function CardIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <rect x="4" y="10" width="40" height="28" rx="4" />
      <path d="M4 18h40M10 30h10" />
    </Svg>
  );
}

export function ContactlessIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M14 16a12 12 0 010 16M21 12a18 18 0 010 24M28 8a24 24 0 010 32M35 5a29 29 0 010 38" />
    </Svg>
  );
}

export function BackspaceIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M18 10h24v28H18L5 24z" />
      <path d="M25 18l12 12M37 18L25 30" />
    </Svg>
  );
}

export function PrinterIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M13 18V6h22v12" />
      <rect x="5" y="18" width="38" height="16" rx="3" />
      <path d="M13 28h22v14H13z" />
    </Svg>
  );
}

export function ClockIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <circle cx="24" cy="24" r="19" />
      <path d="M24 13v11l7 5" />
    </Svg>
  );
}

export function MenuIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M8 13h32M8 24h32M8 35h32" />
    </Svg>
  );
}

export function LogoutIcon(props: IconProps) {
  return (
    <Svg {...props}>
      <path d="M20 8H10a2 2 0 00-2 2v28a2 2 0 002 2h10" />
      <path d="M31 15l9 9-9 9M40 24H19" />
    </Svg>
  );
}
