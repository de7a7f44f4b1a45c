/** `info.version` of the prediction feed's OpenAPI document. */
export const PREDICT_API_VERSION = "v9";
