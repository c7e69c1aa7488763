package kcompat.sidecar;

import com.google.gson.JsonArray;
import com.google.gson.JsonObject;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * ACL binding filters and bindings across releases: ResourcePatternFilter and pattern() from 2.0 (KIP-290),
 * ResourceFilter and resource() (literal names only) before; both reached by name.
 */
public final class Acls {
    private Acls() {
    }

    /** An AclBindingFilter from the JSON of an AclFilter; a non-literal pattern a release lacks is left out. */
    public static Object filter(JsonObject acl, Call call) throws Exception {
        Class<?> resourceType = Class.forName("org.apache.kafka.common.resource.ResourceType");
        Class<?> operation = Class.forName("org.apache.kafka.common.acl.AclOperation");
        Class<?> permission = Class.forName("org.apache.kafka.common.acl.AclPermissionType");
        Class<?> entryFilter = Class.forName("org.apache.kafka.common.acl.AccessControlEntryFilter");
        Object type = Reflect.enumValue(resourceType, acl.get("resource_type").getAsString());
        String name = Json.text(acl, "resource_name");
        String pattern = acl.get("pattern").getAsString();
        Object resource;
        Class<?> resourceClass;
        try {
            resourceClass = Class.forName("org.apache.kafka.common.resource.ResourcePatternFilter");
            Class<?> patternType = Class.forName("org.apache.kafka.common.resource.PatternType");
            resource = resourceClass.getConstructor(resourceType, String.class, patternType)
                .newInstance(type, name, Reflect.enumValue(patternType, pattern));
        } catch (ClassNotFoundException e) {
            if (!"LITERAL".equals(pattern)) {
                call.unsupported.add("pattern");
            }
            resourceClass = Class.forName("org.apache.kafka.common.resource.ResourceFilter");
            resource = resourceClass.getConstructor(resourceType, String.class).newInstance(type, name);
        }
        Object entry = entryFilter.getConstructor(String.class, String.class, operation, permission).newInstance(
            Json.text(acl, "principal"), Json.text(acl, "host"),
            Reflect.enumValue(operation, acl.get("operation").getAsString()),
            Reflect.enumValue(permission, acl.get("permission").getAsString()));
        return Class.forName("org.apache.kafka.common.acl.AclBindingFilter")
            .getConstructor(resourceClass, entryFilter).newInstance(resource, entry);
    }

    /** The filter's result name, as AclFilter.label in Python: {@code topic:t:User:alice:ANY:ANY}. */
    public static String label(JsonObject acl) {
        String name = Json.text(acl, "resource_name");
        String principal = Json.text(acl, "principal");
        return acl.get("resource_type").getAsString() + ":" + (name == null ? "*" : name) + ":"
            + (principal == null ? "*" : principal) + ":" + acl.get("operation").getAsString() + ":"
            + acl.get("permission").getAsString();
    }

    /** One binding as AclSpec.label names it: {@code topic:t:User:alice:READ:ALLOW}. */
    public static String label(Object binding) throws Exception {
        Object resource = Reflect.invoke(binding, "pattern");
        if (resource == null) {
            resource = Reflect.invoke(binding, "resource");
        }
        Object entry = binding.getClass().getMethod("entry").invoke(binding);
        return String.valueOf(Reflect.invoke(resource, "resourceType")).toLowerCase(Locale.ROOT) + ":"
            + Reflect.invoke(resource, "name") + ":" + Reflect.invoke(entry, "principal") + ":"
            + Reflect.invoke(entry, "operation") + ":" + Reflect.invoke(entry, "permissionType");
    }

    /** The bindings' labels, sorted. */
    public static JsonArray labels(Collection<?> bindings) throws Exception {
        List<String> found = new ArrayList<String>();
        for (Object binding : bindings) {
            found.add(label(binding));
        }
        Collections.sort(found);
        JsonArray out = new JsonArray();
        for (String label : found) {
            out.add(label);
        }
        return out;
    }
}
