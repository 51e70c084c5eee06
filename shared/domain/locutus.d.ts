/** locutus ships no types: the one function this service uses (shared/domain/relative-dates.ts). */
declare module 'locutus/php/datetime/strtotime' {
  /** PHP's strtotime: seconds since the epoch, or false when the text is no date it reads. */
  function strtotime(text: string, now?: number): number | false;
  export = strtotime;
}
