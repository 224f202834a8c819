package io.ibaccept.rules;

/** One check of the field troubleshooting table. Implementations add findings to the context. */
public interface Rule {
    String id();

    void evaluate(Ctx ctx);
}
