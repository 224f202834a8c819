package io.ibaccept.parse;

/** A pure parser: text in, model out; unreadable records go to issues, a file with nothing usable throws. */
@FunctionalInterface
public interface Parser<T> {
    T parse(Text text, Issues issues);
}
