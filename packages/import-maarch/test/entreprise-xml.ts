/** An installation's own entreprise.xml: a changed type, a type of its own, one commented out, missing attributes. */
export const CUSTOM_ENTREPRISE_XML = `<?xml version="1.0" encoding="utf-8"?>
<ROOT>
    <attachment_types>
        <type show="true" with_chrono="true" attach_in_mail="true" icon="R" sign="true">
            <id>response_project</id>
            <label>_RESPONSE_PROJECT</label>
        </type>
        <!-- <type show="true" with_chrono="true" icon="TR" sign="false">
            <id>transmission</id>
            <label>Transmission</label>
        </type> -->
        <type show="false" with_chrono="false" icon="AJ" sign="false" attach_in_mail="false">
            <id>avis_juridique</id>
            <label>Avis juridique &amp; conseil</label>
        </type>
        <type>
            <id>simple_attachment</id>
            <label>_A_PJ</label>
        </type>
    </attachment_types>
    <contact_check><check_days_before>5</check_days_before></contact_check>
</ROOT>
`
