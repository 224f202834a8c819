package io.ibaccept.report;

/** What the cover page says about the handover that the dump does not know: the customer, the site and who ran it. */
public record CoverInfo(String customer, String site, String operator) {
    public static final CoverInfo NONE = new CoverInfo("", "", "");

    public CoverInfo {
        customer = customer == null ? "" : customer.strip();
        site = site == null ? "" : site.strip();
        operator = operator == null ? "" : operator.strip();
    }
}
