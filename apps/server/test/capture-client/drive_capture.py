"""Drives the real capture client's class through its capture workflow against a Mailroom server.

Test material for apps/server/test/capture-client.test.ts. The class is Open-Capture for MEM Courrier's
`WebServices` (GPL-3.0): it is imported, unmodified, from the folder given with --open-capture (the copy kept
beside the repository, ../shared/reference/open-capture), never copied into the project. The workflow is the one
recorded against the real Maarch Courrier 20.10 in
packages/testing/fixtures/maarch-20.10-answers/capture-workflow.json, in the same order and with the same bodies.

Prints one JSON line per step on standard output: {"step", "ok", "detail", "exchanges"}, where `detail` says what
the client got and, when the step failed, what it expected, and `exchanges` lists the requests the step sent with
Mailroom's answers (base64 files shortened). A step whose prerequisite failed is reported as not run. After the
client's own steps it reads the effects back through the REST API, the way a user would.
"""

import argparse
import json
import sys
import urllib.parse
from datetime import datetime, time

import requests
from requests.auth import HTTPBasicAuth

# The reference folder may be read-only (it is in CI): no bytecode written beside the class.
sys.dont_write_bytecode = True

ANSWER_LIMIT = 800
RECORD_COLUMNS = 'res_id, alt_identifier, status, subject, type_id, destination, process_limit_date, closing_date'
# Request bodies whole (but their files), so the test can compare them with the recorded ones.
BODY_LIMIT = 8000
NOTE = 'Courrier capturé'
SUBJECT = "Demande d'inscription a la piscine"
NOTE_ATTACHMENT = 'ATTACHMENT_NOTE'
MAIL_ATTACHMENT = 'ATTACHMENT_MAIL'
# What an Open-Capture installation's configuration file gives the class (config.cfg), for this workflow.
CONFIGURATION = {
    'OCForMEM': {'uppercase_subject': 'True'},
    'REATTACH_DOCUMENT': {'status': 'END', 'action': '', 'group': '', 'basket': ''},
    # An empty title: the class's default, 'Rapprochement note interne'.
    NOTE_ATTACHMENT: {'status': 'A_TRA', 'title': '', 'attachment_type': 'response_project', 'format': 'pdf'},
    MAIL_ATTACHMENT: {
        'status': 'A_TRA',
        'title': 'Pièce jointe du mail',
        'attachment_type': 'simple_attachment',
        'format': 'pdf',
    },
}
CONTACT = {
    'company': 'Open-Capture SARL',
    'firstname': 'Oscar',
    'lastname': 'Capture',
    'email': 'oscar.capture@example.org',
    'phone': '0600000000',
    'addressNumber': '1',
    'addressStreet': 'rue du Scanner',
    'addressPostcode': '99000',
    'addressTown': 'Maarch-les-Bains',
    'externalId': {'ia_tmp_contact_id': '7'},
}


class Configuration:
    """The shape of Open-Capture's Config object, as far as the class reads it."""

    def __init__(self, cfg):
        self.cfg = cfg


class CollectingLog:
    """The logger the class writes its errors to: kept, to say why a step failed."""

    def __init__(self):
        self.messages = []

    def _keep(self, message):
        self.messages.append(str(message)[:ANSWER_LIMIT])

    error = info = warning = debug = _keep


def pdf_file(label):
    """A small valid one-page PDF whose page shows `label` (the capture client sends PDF scans)."""
    text = label.encode('latin-1', 'replace')
    stream = b'BT /F1 18 Tf 72 720 Td (' + text + b') Tj ET'
    objects = [
        b'<< /Type /Catalog /Pages 2 0 R >>',
        b'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
        b'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R '
        b'/Resources << /Font << /F1 5 0 R >> >> >>',
        b'<< /Length ' + str(len(stream)).encode() + b' >>\nstream\n' + stream + b'\nendstream',
        b'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    ]
    out = bytearray(b'%PDF-1.4\n')
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += str(number).encode() + b' 0 obj\n' + body + b'\nendobj\n'
    xref = len(out)
    out += b'xref\n0 ' + str(len(objects) + 1).encode() + b'\n0000000000 65535 f \n'
    for offset in offsets:
        out += ('%010d 00000 n \n' % offset).encode()
    out += b'trailer\n<< /Size ' + str(len(objects) + 1).encode() + b' /Root 1 0 R >>\nstartxref\n'
    out += str(xref).encode() + b'\n%%EOF\n'
    return bytes(out)


def shortened(text, limit):
    """A request or answer body for the report: base64 files replaced by their length, the rest cut."""
    if text is None:
        return None
    if isinstance(text, bytes):
        text = text.decode('utf-8', 'replace')
    try:
        body = json.loads(text)
    except ValueError:
        return text[:limit]
    if isinstance(body, dict) and isinstance(body.get('encodedFile'), str):
        body['encodedFile'] = '<base64, %d characters>' % len(body['encodedFile'])
    return json.dumps(body, ensure_ascii=False)[:limit]


class ExchangeRecorder:
    """Records every request the class (or the read-back) sends, with the answer, by wrapping requests' Session.send."""

    def __init__(self):
        self.exchanges = []
        original = requests.sessions.Session.send
        recorder = self

        def send(session, request, **kwargs):
            response = original(session, request, **kwargs)
            url = urllib.parse.urlsplit(request.url)
            recorder.exchanges.append({
                'request': '%s %s%s' % (request.method, url.path, '?' + url.query if url.query else ''),
                'body': shortened(request.body, BODY_LIMIT),
                'status': response.status_code,
                'answer': shortened(response.text, ANSWER_LIMIT),
            })
            return response

        requests.sessions.Session.send = send


class Workflow:
    def __init__(self, arguments):
        self.arguments = arguments
        self.log = CollectingLog()
        self.recorder = ExchangeRecorder()
        self.rest = arguments.url.rstrip('/') + '/rest'
        self.auth = HTTPBasicAuth(arguments.login, arguments.password)
        self.results = {}

    def step(self, name, action, check, needs=()):
        """Runs one step and prints its line; the step's result is kept under `name` when it succeeded."""
        missing = [need for need in needs if need not in self.results]
        first_exchange = len(self.recorder.exchanges)
        self.log.messages = []
        if missing:
            ok, detail = False, 'not run: needs ' + ', '.join(missing)
        else:
            try:
                result = action()
                problem = check(result)
            except Exception as error:  # the class raises on answers it does not expect (TypeError, KeyError, …)
                result, problem = None, 'the client raised %s: %s' % (type(error).__name__, error)
            ok = problem is None
            detail = ('got ' + describe(result)) if ok else problem
            if ok:
                self.results[name] = result
        if not ok and self.log.messages:
            detail += ' | client log: ' + ' / '.join(self.log.messages)
        line = {'step': name, 'ok': ok, 'detail': detail, 'exchanges': self.recorder.exchanges[first_exchange:]}
        print(json.dumps(line, ensure_ascii=False), flush=True)

    def get(self, path):
        """A read-back, as a user would make it: GET with the same account, the JSON answer or an error naming the status."""
        return answer_of(requests.get(self.rest + path, auth=self.auth, timeout=30))

    def record(self, res_id):
        """A record's columns through the interface's search (POST /rest/res/list), as a user of Mailroom reads them."""
        answer = answer_of(
            requests.post(
                self.rest + '/res/list',
                auth=self.auth,
                json={'select': RECORD_COLUMNS, 'clause': 'res_id = %d' % res_id},
                timeout=30,
            )
        )
        found = answer.get('resources') if isinstance(answer, dict) else None
        if not isinstance(found, list) or len(found) != 1:
            raise LookupError('POST /res/list found no record %d: %s' % (res_id, describe(answer)))
        return found[0]

    def run(self):
        arguments = self.arguments
        sys.path.insert(0, arguments.open_capture)
        from WebServices import WebServices  # from the folder given at run time, never a copy

        config = Configuration(CONFIGURATION)
        process = {
            'priority': arguments.priority,
            'status': 'NEW',
            'generate_chrono': 'True',
            'doctype': arguments.doctype,
            'model_id': arguments.model,
            'typist': arguments.typist,
        }
        r = self.results

        def connect():
            return WebServices(self.rest, arguments.login, arguments.password, self.log, 30, None)

        self.step('connect', connect, lambda client: None)
        client = lambda: r['connect']

        self.step(
            'retrieve_entities',
            lambda: client().retrieve_entities(),
            lambda answer: expect_list_with(
                answer, 'entities', 'serialId', int(arguments.destination), 'the destination entity'
            ),
            needs=['connect'],
        )
        self.step(
            'retrieve_doctypes',
            lambda: client().retrieve_doctypes(),
            lambda answer: expect_list_with(answer, 'structure', 'type_id', int(arguments.doctype), 'the document type'),
            needs=['connect'],
        )
        self.step(
            'retrieve_users',
            lambda: client().retrieve_users(),
            lambda answer: expect_list_with(answer, 'users', 'user_id', arguments.login, 'the capture account'),
            needs=['connect'],
        )
        self.step(
            'retrieve_custom_fields',
            lambda: client().retrieve_custom_fields(),
            lambda answer: expect_list_with(answer, 'customFields', None, None, None),
            needs=['connect'],
        )
        self.step(
            'create_contact',
            lambda: client().create_contact(dict(CONTACT)),
            lambda result: expect_success(result, lambda body: isinstance(body.get('id'), int), '{"id": <integer>}'),
            needs=['connect'],
        )
        contact_id = lambda: r['create_contact'][1]['id']
        self.step(
            'retrieve_contact_by_id',
            lambda: client().retrieve_contact_by_id(contact_id()),
            lambda contact: expect_fields(
                contact,
                {'id': contact_id(), 'lastname': 'Capture', 'externalId': CONTACT['externalId']},
            ),
            needs=['create_contact'],
        )

        def update_contact():
            # What Open-Capture does: the contact as read, its externalId changed, sent back whole.
            contact = json.loads(json.dumps(r['retrieve_contact_by_id']))
            contact['externalId']['ia_tmp_contact_id'] = '8'
            return client().update_contact_external_id(contact)

        self.step(
            'update_contact_external_id',
            update_contact,
            lambda result: None if result == (True, '') else 'expected (True, "") after a 204, got ' + describe(result),
            needs=['retrieve_contact_by_id'],
        )
        self.step(
            'retrieve_doctype',
            lambda: client().retrieve_doctype(arguments.doctype),
            lambda answer: expect_integer(answer, 'doctype', 'process_delay'),
            needs=['connect'],
        )
        self.step(
            'retrieve_workings_days',
            lambda: client().retrieve_workings_days(),
            lambda answer: expect_integer(answer, 'parameter', 'param_value_int'),
            needs=['connect'],
        )
        today = datetime.combine(datetime.now(), time.min)
        self.step(
            'calcul_process_limit_date',
            lambda: client().calcul_process_limit_date(arguments.doctype),
            lambda date: None if isinstance(date, datetime) and date > today else 'expected a date after today',
            needs=['retrieve_doctype', 'retrieve_workings_days'],
        )
        self.step(
            'insert_with_args',
            lambda: client().insert_with_args(
                pdf_file(SUBJECT),
                config,
                r['retrieve_contact_by_id'],
                SUBJECT,
                None,
                arguments.destination,
                process,
                '',
                'pdf',
                None,
            ),
            lambda result: expect_success(
                result, lambda body: isinstance(body.get('resId'), int), '{"resId": <integer>}'
            ),
            needs=['retrieve_contact_by_id', 'calcul_process_limit_date'],
        )
        res_id = lambda: r['insert_with_args'][1]['resId']
        # Not a method of the class: a capture tool learns the chrono from the document (a printed chrono);
        # here from the record, through the interface's search.
        self.step(
            'read_letter_chrono',
            lambda: self.record(res_id()),
            lambda letter: None if letter.get('alt_identifier') else 'expected the record with a chrono',
            needs=['insert_with_args'],
        )
        self.step(
            'insert_note',
            lambda: client().insert_note(res_id(), NOTE),
            lambda result: expect_success(
                result, lambda body: isinstance(body.get('noteId'), int), '{"noteId": <integer>}'
            ),
            needs=['insert_with_args'],
        )
        for attachment in (NOTE_ATTACHMENT, MAIL_ATTACHMENT):
            self.step(
                'insert_attachment_' + CONFIGURATION[attachment]['attachment_type'],
                lambda attachment=attachment: client().insert_attachment(
                    pdf_file(attachment), config, {'resid': res_id(), 'chrono': ''}, attachment
                ),
                lambda result: expect_success(result, lambda body: isinstance(body.get('id'), int), '{"id": <integer>}'),
                needs=['insert_with_args'],
            )
        self.step(
            'link_documents',
            lambda: client().link_documents(res_id(), arguments.link_to),
            lambda linked: None if linked is True else 'expected 200 or 204',
            needs=['insert_with_args'],
        )
        chrono = lambda: r['read_letter_chrono']['alt_identifier']
        self.step(
            'retrieve_res_id_master_by_chrono',
            lambda: client().retrieve_res_id_master_by_chrono(chrono()),
            lambda answer: expect_list_with(answer, 'resources', 'resId', res_id(), 'the new letter'),
            needs=['read_letter_chrono'],
        )
        self.step(
            'retrieve_listinstance',
            lambda: client().retrieve_listinstance(res_id()),
            lambda answer: expect_list_with(answer, 'listInstance', None, None, None),
            needs=['insert_with_args'],
        )
        self.step(
            'change_status',
            lambda: client().change_status(res_id(), config),
            lambda changed: None if changed is True else 'expected 200',
            needs=['insert_with_args'],
        )
        self.read_back(today)

    def read_back(self, today):
        """What a user sees afterwards: the record, its sender, note, attachments and links, through the REST API."""
        r = self.results
        res_id = lambda: r['insert_with_args'][1]['resId']
        link_to = self.arguments.link_to

        def check_record(letter):
            destination = [
                entity['entity_id']
                for entity in r['retrieve_entities']['entities']
                if entity.get('serialId') == int(self.arguments.destination)
            ]
            expected = {
                'status': 'END',
                'subject': SUBJECT.upper(),
                'alt_identifier': r['read_letter_chrono']['alt_identifier'],
                'type_id': int(self.arguments.doctype),
                'destination': destination[0],
            }
            problem = expect_fields(letter, expected)
            if problem:
                return problem
            # The date the client computed and sent (a date at midnight; Mailroom answers it in UTC).
            limit = r['calcul_process_limit_date'].strftime('%Y-%m-%d')
            if not str(letter.get('process_limit_date') or '').startswith(limit):
                return 'expected process_limit_date %s, got %s' % (limit, describe(letter.get('process_limit_date')))
            if not letter.get('closing_date'):
                return 'expected a closing_date once the status is END, got ' + describe(letter.get('closing_date'))
            return None

        self.step(
            'read_back_record',
            lambda: self.record(res_id()),
            check_record,
            needs=['retrieve_entities', 'read_letter_chrono', 'change_status', 'calcul_process_limit_date'],
        )

        def original_file():
            response = requests.get(self.rest + '/resources/%d/originalContent' % res_id(), auth=self.auth, timeout=30)
            if response.status_code != 200:
                answer_of(response)
            return response.content

        self.step(
            'read_back_file',
            original_file,
            lambda content: None
            if content == pdf_file(SUBJECT)
            else 'expected the scanned PDF as sent (%d bytes), got %d bytes' % (len(pdf_file(SUBJECT)), len(content)),
            needs=['insert_with_args'],
        )
        self.step(
            'read_back_contact',
            lambda: self.get('/contacts/%d' % r['create_contact'][1]['id']),
            lambda contact: expect_fields(contact, {'externalId': {'ia_tmp_contact_id': '8'}}),
            needs=['update_contact_external_id'],
        )
        self.step(
            'read_back_notes',
            lambda: self.get('/resources/%d/notes' % res_id()),
            lambda answer: expect_items(
                answer, 'notes', [{'id': r['insert_note'][1]['noteId'], 'value': NOTE, 'identifier': res_id()}]
            ),
            needs=['insert_note'],
        )
        self.step(
            'read_back_attachments',
            lambda: self.get('/resources/%d/attachments' % res_id()),
            lambda answer: expect_items(
                answer,
                'attachments',
                [
                    {
                        'resId': r['insert_attachment_response_project'][1]['id'],
                        'title': 'Rapprochement note interne',
                        'type': 'response_project',
                        'status': 'A_TRA',
                    },
                    {
                        'resId': r['insert_attachment_simple_attachment'][1]['id'],
                        'title': 'Pièce jointe du mail',
                        'type': 'simple_attachment',
                        'status': 'A_TRA',
                    },
                ],
            ),
            needs=['insert_attachment_response_project', 'insert_attachment_simple_attachment'],
        )
        self.step(
            'read_back_links',
            lambda: (
                self.get('/resources/%d/linkedResources' % res_id()),
                self.get('/resources/%d/linkedResources' % link_to),
            ),
            lambda answers: expect_list_with(answers[0], 'linkedResources', 'resId', link_to, 'the linked record')
            or expect_list_with(answers[1], 'linkedResources', 'resId', res_id(), 'the new letter, from the other side'),
            needs=['link_documents'],
        )

        # The sender as a user sees it: the linked records list each one's senders by name, as Maarch 20.10 does
        # (linked-resources.json: "Oscar Capture (Open-Capture SARL)").
        def check_sender(answer):
            letters = [item for item in answer.get('linkedResources', []) if item.get('resId') == res_id()]
            sender = '%s %s (%s)' % (CONTACT['firstname'], CONTACT['lastname'], CONTACT['company'])
            if not letters or sender not in (letters[0].get('senders') or []):
                return 'expected the new letter with senders ["%s"], got %s' % (sender, describe(letters))
            return None

        self.step(
            'read_back_sender',
            lambda: self.get('/resources/%d/linkedResources' % link_to),
            check_sender,
            needs=['read_back_links'],
        )


def answer_of(response):
    """The JSON answer of a read-back, or an error naming the request, the status and the answer."""
    if response.status_code != 200:
        raise LookupError(
            '%s %s answered %d: %s'
            % (response.request.method, response.request.path_url, response.status_code, response.text[:ANSWER_LIMIT])
        )
    return response.json()


def describe(value):
    """A value for the report, cut: the class returns tuples (False, answer) on errors and dicts on success."""
    if isinstance(value, datetime):
        return value.isoformat(sep=' ')
    if isinstance(value, bytes):
        return '<%d bytes>' % len(value)
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):
        text = repr(value)
    return text[:ANSWER_LIMIT]


def failed_call(result):
    """The class's answer to an error status: (False, text)."""
    return isinstance(result, tuple) and len(result) == 2 and result[0] is False


def expect_list_with(answer, key, field, value, what):
    if failed_call(answer):
        return 'the call failed: ' + describe(answer[1])
    if not isinstance(answer, dict) or not isinstance(answer.get(key), list):
        return 'expected {"%s": [...]}, got %s' % (key, describe(answer))
    if field is not None and not any(isinstance(item, dict) and item.get(field) == value for item in answer[key]):
        return 'expected %s (%s = %s) in "%s", got %s' % (what, field, describe(value), key, describe(answer[key]))
    return None


def expect_success(result, body_ok, shape):
    if not (isinstance(result, tuple) and len(result) == 2 and result[0] is True):
        return 'the call failed: ' + describe(result[1] if failed_call(result) else result)
    if not isinstance(result[1], dict) or not body_ok(result[1]):
        return 'expected %s, got %s' % (shape, describe(result[1]))
    return None


def expect_fields(answer, expected):
    if failed_call(answer):
        return 'the call failed: ' + describe(answer[1])
    if not isinstance(answer, dict):
        return 'expected an object, got ' + describe(answer)
    for field, value in expected.items():
        if answer.get(field) != value:
            return 'expected %s = %s, got %s' % (field, describe(value), describe(answer.get(field)))
    return None


def expect_items(answer, key, items):
    problem = expect_list_with(answer, key, None, None, None)
    if problem:
        return problem
    for wanted in items:
        if not any(all(item.get(field) == value for field, value in wanted.items()) for item in answer[key]):
            return 'expected an item %s in "%s", got %s' % (describe(wanted), key, describe(answer[key]))
    return None


def expect_integer(answer, key, field):
    if failed_call(answer):
        return 'the call failed: ' + describe(answer[1])
    inner = answer.get(key) if isinstance(answer, dict) else None
    if not isinstance(inner, dict) or not isinstance(inner.get(field), int):
        return 'expected {"%s": {"%s": <integer>, ...}}, got %s' % (key, field, describe(answer))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('--open-capture', required=True, help='the folder holding WebServices.py')
    parser.add_argument('--url', required=True, help='the Mailroom server, without /rest')
    parser.add_argument('--login', default='cchaplin')
    parser.add_argument('--password', default='maarch')
    parser.add_argument('--link-to', type=int, required=True, help='an earlier record to link the new letter to')
    # The demo organisation's ids: COU (Service Courrier), cchaplin, Abonnements, Courrier arrivée, Normal.
    parser.add_argument('--destination', default='8')
    parser.add_argument('--typist', default='2')
    parser.add_argument('--doctype', default='101')
    parser.add_argument('--model', default='1')
    parser.add_argument('--priority', default='poiuytre1357nbvc')
    Workflow(parser.parse_args()).run()


if __name__ == '__main__':
    main()
