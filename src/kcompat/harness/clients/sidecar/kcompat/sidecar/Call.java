package kcompat.sidecar;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;

/** The "result" being built for one admin call: resources, result fields, options left out, what it threw. */
public final class Call {
    public final JsonObject result = new JsonObject();
    public final JsonArray resources = new JsonArray();
    public final JsonArray resultFields = new JsonArray();
    public final JsonArray unsupported = new JsonArray();

    Call() {
        result.add("resources", resources);
        result.add("result_fields", resultFields);
        result.add("unsupported_options", unsupported);
        result.add("exception", JsonNull.INSTANCE);
        result.add("exception_message", JsonNull.INSTANCE);
    }

    /** Whatever the client (or this release's API) threw is the observation, not a failure of the sidecar. */
    public void threw(Throwable t) {
        Throwable cause = Reflect.unwrap(t);
        result.addProperty("exception", cause.getClass().getName());
        result.addProperty("exception_message", String.valueOf(cause.getMessage()).replace('\n', ' '));
    }
}
