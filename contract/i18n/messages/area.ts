/** One area's messages (contract/i18n/messages/<area>/): the four catalogues and the keys rightly the same as English. */
export interface Area<Key extends string> {
  readonly en: Readonly<Record<Key, string>>;
  readonly de: Readonly<Record<Key, string>>;
  readonly pt: Readonly<Record<Key, string>>;
  readonly hr: Readonly<Record<Key, string>>;
  readonly sameAsEnglish: Readonly<Record<'de' | 'pt' | 'hr', readonly Key[]>>;
}
