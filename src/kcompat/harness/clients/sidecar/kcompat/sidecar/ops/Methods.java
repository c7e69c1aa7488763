package kcompat.sidecar.ops;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import java.lang.reflect.Method;
import java.util.TreeSet;
import kcompat.sidecar.Operation;

/**
 * {"methods": [names]} of args.class's public methods (Object's left out), or {"methods": null} when
 * this release has no such class: what its API offers, by reflection.
 */
public final class Methods implements Operation {
    @Override
    public JsonObject run(JsonObject connection, JsonObject args) {
        JsonObject result = new JsonObject();
        TreeSet<String> names = new TreeSet<String>();
        try {
            for (Method method : Class.forName(args.get("class").getAsString()).getMethods()) {
                if (method.getDeclaringClass() != Object.class) {
                    names.add(method.getName());
                }
            }
        } catch (ClassNotFoundException e) {
            result.add("methods", JsonNull.INSTANCE);
            return result;
        }
        JsonArray list = new JsonArray();
        for (String name : names) {
            list.add(name);
        }
        result.add("methods", list);
        return result;
    }
}
