package kcompat.sidecar;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.common.protocol.ApiKeys;

/**
 * What differs between kafka-clients releases, reached by name so one source compiles against all.
 * A method or class this release lacks is null (or -1), for the caller to report, never to hide.
 */
public final class Reflect {
    private Reflect() {
    }

    /** This kafka-clients release; AppInfoParser moved to utils.internals in 4.x. */
    public static String clientVersion() {
        for (String name : new String[] {"org.apache.kafka.common.utils.AppInfoParser",
                                         "org.apache.kafka.common.utils.internals.AppInfoParser"}) {
            try {
                return String.valueOf(Class.forName(name).getMethod("getVersion").invoke(null));
            } catch (Exception e) {
                continue;
            }
        }
        return "unknown";
    }

    /** ApiKeys.latestVersion() (a field access in some releases, a method in all we compile against). */
    public static int latestVersion(String apiName) {
        return apiKeyVersion(apiName, "latestVersion");
    }

    /** ApiKeys.oldestVersion(): the oldest request version this release still sends (4.0 dropped many, KIP-896). */
    public static int oldestVersion(String apiName) {
        return apiKeyVersion(apiName, "oldestVersion");
    }

    /** A version getter of one ApiKeys constant, by reflection; -1 when this release has no such key or getter. */
    private static int apiKeyVersion(String apiName, String getter) {
        try {
            Object key = ApiKeys.valueOf(apiName);
            return ((Number) key.getClass().getMethod(getter).invoke(key)).intValue();
        } catch (Exception e) {
            return -1;
        }
    }

    public static int apiId(String apiName) {
        try {
            return ApiKeys.valueOf(apiName).id;
        } catch (IllegalArgumentException e) {
            return -1;
        }
    }

    public static Method method(Class<?> type, String name, Class<?>... params) {
        try {
            return type.getMethod(name, params);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    /** A getter's value, or null when this release has no such getter (or it threw). */
    public static Object invoke(Object target, String name) {
        Method getter = method(target.getClass(), name);
        if (getter == null) {
            return null;
        }
        try {
            return getter.invoke(target);
        } catch (Exception e) {
            return null;
        }
    }

    /** {@code type.fromString(name)}: the ACL enums parse their own names, case-insensitively. */
    public static Object enumValue(Class<?> type, String name) throws Exception {
        return type.getMethod("fromString", String.class).invoke(null, name);
    }

    /** The exception the client really threw, out of a future's or reflection's wrapper. */
    public static Throwable unwrap(Throwable t) {
        while ((t instanceof ExecutionException || t instanceof InvocationTargetException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
