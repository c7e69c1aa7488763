package kcompat.sidecar;

import java.lang.reflect.Method;
import org.apache.kafka.clients.admin.AdminClient;

/** Admin methods newer than the oldest kafka-clients on the axis, reached by name so one source compiles for all. */
public final class AdminMethods {
    private AdminMethods() {
    }

    /**
     * AdminClient's public method {@code name} of {@code params} parameters, found before any class it takes is
     * looked up: a release without it is its NoSuchMethodException, not a ClassNotFoundException of an argument.
     */
    public static Method find(String name, int params) throws NoSuchMethodException {
        for (Method method : AdminClient.class.getMethods()) {
            if (method.getName().equals(name) && method.getParameterTypes().length == params) {
                return method;
            }
        }
        throw new NoSuchMethodException("org.apache.kafka.clients.admin.AdminClient." + name);
    }
}
