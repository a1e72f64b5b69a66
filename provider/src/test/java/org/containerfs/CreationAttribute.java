package org.containerfs;

import java.nio.file.attribute.FileAttribute;

/** The tests' one way to pass a format attribute ({@code gsd:type}, {@code scda:encode}...) at creation. */
public final class CreationAttribute {
    private CreationAttribute() {}

    public static <T> FileAttribute<T> of(String name, T value) {
        return new FileAttribute<>() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public T value() {
                return value;
            }
        };
    }
}
