/** Longest status identifier (status.id is varchar(10); interface limit of the status update). */
export declare const MAX_STATUS_ID_LENGTH = 10;
/** Longest chrono number (res_letterbox.alt_identifier is varchar(255); interface limit). */
export declare const MAX_CHRONO_LENGTH = 255;
/**
 * Most identifiers one status update may list. The interface sets no maximum; a bound keeps one call's
 * transaction, locks and history insert to a size that finishes well within the statement timeout.
 */
export declare const MAX_STATUS_UPDATE_TARGETS = 10000;
/**
 * Longest history message. history.info is unbounded text, but the message is copied once per record:
 * 10,000 records times a body-sized message would be gigabytes in one transaction.
 */
export declare const MAX_HISTORY_MESSAGE_LENGTH = 4000;
/** Target status when the body gives none (interface endpoint 6, reference §5 step 1). */
export declare const DEFAULT_TARGET_STATUS = "COU";
/** History message when the body gives none (interface endpoint 6). */
export declare const DEFAULT_HISTORY_MESSAGE = "status update";
