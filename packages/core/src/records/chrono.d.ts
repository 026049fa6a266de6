/** How the chrono number of a record is made: which counter moves and how its value is written. */
export interface ChronoPlan {
    /** Counter row (`chrono_counters.counter_id`): one per category and year, so numbers restart yearly. */
    readonly counterId: string;
    /** The chrono number for a counter value. */
    format(value: number): string;
}
/**
 * The chrono plan of a category at a moment: `MAARCH/<YYYY>A/<n>` for incoming, `D` for outgoing,
 * `I` for internal, and null (no chrono number) for every other category such as ged_doc.
 * The year is the UTC year of the creation.
 */
export declare function chronoPlan(category: string, now: Date): ChronoPlan | null;
